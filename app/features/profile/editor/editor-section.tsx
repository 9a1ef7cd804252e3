import type { SectionProps } from "~/ui/section";

/** One card of /admin/profile, named by its heading. */
export function EditorSection({ id, title, children }: SectionProps) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={`${id}-heading`} className="text-2xl font-bold text-slate-900 dark:text-white">
        {title}
      </h2>
      {children}
    </section>
  );
}

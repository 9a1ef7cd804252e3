import type { ReactNode } from "react";

/** A titled section: its id names its heading (and, on the home page, the header's anchor). */
export type SectionProps = { id: string; title: string; children: ReactNode };

/** A home-page section: an anchor id the header scrolls to, and its heading. */
export function Section({ id, title, children }: SectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className="py-12">
      <h2
        id={headingId}
        className="mb-6 text-2xl font-bold text-slate-900 sm:text-3xl dark:text-white"
      >
        {title}
      </h2>
      {children}
    </section>
  );
}

import type { TocEntry } from "./post-view";

/** The post's h2 and h3 headings as links, h3 nested under the h2 before them. */
export function TableOfContents({
  entries,
  version,
  hidden,
}: {
  entries: TocEntry[];
  version: string;
  hidden: boolean;
}) {
  return (
    <nav
      aria-labelledby={`toc-heading-${version}`}
      data-version={version}
      hidden={hidden}
      className="mb-8 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2
        id={`toc-heading-${version}`}
        className="text-sm font-semibold text-slate-900 dark:text-white"
      >
        Contents
      </h2>
      <ol className="mt-2 space-y-1 text-sm">
        {entries.map((entry) => (
          <li key={entry.id} className={entry.level === 3 ? "ml-4" : undefined}>
            <a
              href={`#${entry.id}`}
              className="text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
            >
              {entry.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

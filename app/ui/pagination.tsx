import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

import { blogHref, paginationItems } from "~/lib/pagination";

const item =
  "inline-flex min-w-11 h-11 items-center justify-center rounded-lg border px-3 text-sm font-medium";
const idle =
  "border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";
const current =
  "border-sky-700 bg-sky-700 text-white dark:border-sky-400 dark:bg-sky-400 dark:text-slate-950";
const disabled =
  "cursor-not-allowed border-slate-200 bg-slate-100 text-slate-500 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400";

/**
 * Previous, numbered pages (a compact window when there are many) and next. Links, so pages
 * work without JavaScript and open in new tabs; the ends are disabled buttons.
 */
export function Pagination({
  page,
  pageCount,
  search = "",
  path,
}: {
  page: number;
  pageCount: number;
  search?: string;
  /** The list's path when it is not the blog's (a tag's). */
  path?: string;
}) {
  if (pageCount <= 1) return null;
  const go = (target: number) => blogHref({ page: target, search, path });
  return (
    <nav aria-label="Pagination" className="mt-10">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        <li>
          <PageStep to={page > 1 ? go(page - 1) : null} rel="prev" label="Previous page">
            <ChevronLeft aria-hidden="true" className="size-4" />
          </PageStep>
        </li>
        {paginationItems(page, pageCount).map((entry, index) =>
          entry === "gap" ? (
            <li
              key={`gap-${index}`}
              aria-hidden="true"
              className="px-1 text-slate-500 dark:text-slate-400"
            >
              …
            </li>
          ) : (
            <li key={entry}>
              <Link
                to={go(entry)}
                preventScrollReset
                aria-label={`Page ${entry}`}
                aria-current={entry === page ? "page" : undefined}
                className={`${item} ${entry === page ? current : idle}`}
              >
                {entry}
              </Link>
            </li>
          ),
        )}
        <li>
          <PageStep to={page < pageCount ? go(page + 1) : null} rel="next" label="Next page">
            <ChevronRight aria-hidden="true" className="size-4" />
          </PageStep>
        </li>
      </ul>
    </nav>
  );
}

/** Previous or next: a link to that page, or a disabled button at either end. */
function PageStep({
  to,
  rel,
  label,
  children,
}: {
  to: string | null;
  rel: "prev" | "next";
  label: string;
  children: ReactNode;
}) {
  if (to === null) {
    return (
      <button type="button" disabled className={`${item} ${disabled}`} aria-label={label}>
        {children}
      </button>
    );
  }
  return (
    <Link to={to} preventScrollReset rel={rel} className={`${item} ${idle}`} aria-label={label}>
      {children}
    </Link>
  );
}

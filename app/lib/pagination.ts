import { SEARCH_MAX_LENGTH } from "./constants";

export type PageItem = number | "gap";

/**
 * Visible page numbers: all of them when there are at most 7; otherwise always 7 items,
 * first and last page with the current page's neighbours, and gaps (never hiding one page).
 */
export function paginationItems(current: number, count: number): PageItem[] {
  if (count <= 7) return Array.from({ length: count }, (_, i) => i + 1);
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (current <= 4) return [...range(1, 5), "gap", count];
  if (current >= count - 3) return [1, "gap", ...range(count - 4, count)];
  return [1, "gap", current - 1, current, current + 1, "gap", count];
}

/**
 * The canonical URL of a list (the blog's, or a tag's at `path`): page 1 and an empty search
 * are left out.
 */
export function blogHref({
  page = 1,
  search = "",
  path = "/blog",
}: {
  page?: number;
  search?: string;
  path?: string;
}): string {
  const params = new URLSearchParams();
  if (search) params.set("q", search);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** A page number in the URL: a positive integer without sign, leading zeros or decimals. */
const PAGE_NUMBER = /^[1-9]\d{0,8}$/;

/**
 * The blog list's `page` parameter as its loader reads it: null for page 1 (the same page as
 * none), the number for a later one, and the raw text when it is no page number (the loader
 * then redirects to the list).
 */
export function blogPageParam(raw: string): string | null {
  if (!PAGE_NUMBER.test(raw)) return raw;
  return raw === "1" ? null : raw;
}

/**
 * The blog list's search text as its loader reads it: U+0000 dropped (PostgreSQL cannot hold
 * it and no post contains it), trimmed, cut to SEARCH_MAX_LENGTH; null when nothing is left.
 */
export function blogSearchParam(raw: string): string | null {
  return raw.replaceAll("\0", "").trim().slice(0, SEARCH_MAX_LENGTH) || null;
}

/** The page and search a list URL asks for; `page` is null when it is no page number. */
export function readBlogQuery(params: URLSearchParams): { page: number | null; search: string } {
  const page = params.get("page");
  const search = params.get("q");
  return {
    page: page === null ? 1 : PAGE_NUMBER.test(page) ? Number(page) : null,
    search: (search === null ? null : blogSearchParam(search)) ?? "",
  };
}

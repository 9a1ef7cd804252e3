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

/** The canonical list URL: page 1 and an empty search are left out. */
export function blogHref({ page = 1, search = "" }: { page?: number; search?: string }): string {
  const params = new URLSearchParams();
  if (search) params.set("q", search);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/blog?${query}` : "/blog";
}

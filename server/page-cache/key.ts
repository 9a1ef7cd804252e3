import type { ResolvedRoute } from "../routing";

/** React Router's own parameter on the `.data` requests of client-side navigation. */
const DATA_PARAMS = ["_routes"];

/**
 * The cache key of a public page's URL: its path and the query parameters its page reads
 * (app/route-policy.ts), each as the loader normalizes it (the first value, as loaders read
 * it), in the policy's order. A link shared with tracking parameters, or a search typed with
 * trailing spaces, then gets the page everyone else gets instead of a render and a copy of its
 * own. The path is the request's own: non-canonical spellings were redirected before this.
 */
export function cacheKeyOf(url: URL, route: Pick<ResolvedRoute, "policy" | "data">): string {
  const kept = new URLSearchParams();
  for (const [name, normalize] of Object.entries(route.policy.query ?? {})) {
    const raw = url.searchParams.get(name);
    const value = raw === null ? null : normalize(raw);
    if (value !== null) kept.append(name, value);
  }
  if (route.data) {
    for (const name of DATA_PARAMS) {
      const value = url.searchParams.get(name);
      if (value !== null) kept.append(name, value);
    }
  }
  const query = kept.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

import type { MiddlewareHandler } from "hono";

import { postPath } from "../app/features/posts";
import { importedPostPath } from "../app/features/import/index.server";
import type { Database } from "../database/db.server";
import type { ResolvedRoute } from "./routing";

/** An imported post's old URL moves for good, like a post's old slug (./moved-posts.ts). */
const MOVED_CACHE = "public, max-age=86400";

/**
 * The old site's URLs of imported posts (docs/decisions/040-imports.md) answer 301 to their
 * posts: WordPress's `/?p=123` on the home page, every other old path where this site has no
 * page. The database is asked only for those, and a failure to ask leaves the page to answer.
 */
export function importedRedirects(
  db: Database,
): MiddlewareHandler<{ Variables: { route?: ResolvedRoute } }> {
  return async (c, next) => {
    const method = c.req.method;
    const route = c.get("route");
    if ((method !== "GET" && method !== "HEAD") || !route) return next();
    const url = new URL(c.req.url);
    const asks =
      route.id === "routes/not-found" || (route.id === "routes/home" && url.searchParams.has("p"));
    if (!asks) return next();
    const slug = await importedPostPath(db, url.pathname, url.searchParams).catch(() => null);
    if (!slug) return next();
    return new Response(null, {
      status: 301,
      headers: { Location: postPath(slug), "Cache-Control": MOVED_CACHE },
    });
  };
}

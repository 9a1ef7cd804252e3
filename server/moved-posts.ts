import { postPath } from "../app/features/posts";
import { findPostByPath } from "../app/features/posts/index.server";
import type { Database } from "../database/db.server";
import type { ResolvedRoute } from "./routing";

/**
 * Where a post's URL moves for everyone: a published post's id (the original URLs) and its old
 * slugs move to its slug, as the post page's loader answers. Drafts and scheduled posts move
 * only for the owner, so theirs are left to the loader. Null for any other route, or when the
 * database cannot say (the URL's own page then answers).
 */
export function movedPostPath(db: Database) {
  return async (route: ResolvedRoute): Promise<string | null> => {
    const segment = route.params.slug;
    if (route.id !== "routes/blog.post" || segment === undefined) return null;
    try {
      const found = await findPostByPath(db, segment);
      return found?.moved && found.post.status === "published" ? postPath(found.post.slug) : null;
    } catch {
      return null;
    }
  };
}

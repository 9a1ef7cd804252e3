import type { Post } from "../post-rows.server";
import { loadWriteSanitizer } from "../sanitize.server";
import type { EditablePost } from "./post-draft";

/** A stored post, whatever its state, as the editor opens it. */
export async function editablePostOf(post: Post): Promise<EditablePost> {
  // Sanitized on save, and again here: the editor renders it, so a row written around the
  // API (by hand, or by an older version) must not run in the owner's browser either. The
  // write sanitizer also takes the highlighter's tokens off: a code block comes back as its
  // language and text, which is what the editor edits (and the server highlights again).
  // content_en is never edited here.
  const sanitizePostHtml = await loadWriteSanitizer();
  return {
    id: post.id,
    title: post.title,
    description: post.description ?? "",
    content: sanitizePostHtml(post.content),
    slug: post.slug,
    tags: post.tags,
    status: post.status,
    publishedAt: post.publishedAt?.toISOString() ?? null,
  };
}

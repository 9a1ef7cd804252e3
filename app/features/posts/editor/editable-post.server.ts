import type { Database } from "../../../../database/db.server";
import type { Post } from "../post-rows.server";
import { readRevision, headRevision } from "../revisions/store.server";
import { loadWriteSanitizer } from "../sanitize.server";
import type { EditablePost } from "./post-draft";

/**
 * A stored post, whatever its state, as the editor opens it: at its newest revision. When the
 * row does not hold that (a published post's autosave or restore: unpublished changes), the
 * editor opens those changes and says so; an autosave's URL and publishing choice, which only
 * Save applies, are opened as typed.
 */
export async function openEditablePost(db: Database, post: Post): Promise<EditablePost> {
  // Sanitized on save, and again here: the editor renders it, so a row written around the
  // API (by hand, or by an older version) must not run in the owner's browser either. The
  // write sanitizer also takes the highlighter's tokens off: a code block comes back as its
  // language and text, which is what the editor edits (and the server highlights again).
  // content_en is never edited here.
  const sanitizePostHtml = await loadWriteSanitizer();
  const head = await headRevision(db, post.id);
  const live = {
    title: post.title,
    description: post.description ?? "",
    content: post.content,
    slug: post.slug,
    tags: post.tags,
    publish: null,
    canonicalUrl: post.canonicalUrl ?? "",
    syndication: post.syndication,
  };
  // The head is read when the row may not hold it (any version not applied: a published post's
  // autosave or restore), or holds only part of it (an autosave's URL and choice as typed).
  const opened =
    head && (head.kind === "auto" || !head.applied)
      ? await readRevision(db, post.id, head.id)
      : null;
  const fields = opened && !opened.applied ? opened : live;
  return {
    id: post.id,
    title: fields.title,
    description: fields.description,
    content: sanitizePostHtml(fields.content),
    slug: opened?.slug || post.slug,
    tags: fields.tags,
    status: post.status,
    publishedAt: post.publishedAt?.toISOString() ?? null,
    revision: head?.id ?? null,
    savedAt: (head?.savedAt ?? post.updatedAt).toISOString(),
    pending: opened !== null && !opened.applied,
    publish: opened?.publish ?? null,
    sendToSubscribers: post.sendToSubscribers,
    wasEverPublished: post.firstPublishedAt !== null,
    // Like the URL, links an autosave kept as typed are opened so (the row takes valid ones).
    canonicalUrl: (opened ?? fields).canonicalUrl,
    syndication: (opened ?? fields).syndication,
  };
}

/**
 * How long the posts feature keeps what the owner may still want back, in days: read by the
 * purges (purge.server.ts) and by the texts that promise it, so the two cannot disagree.
 */

/** A trashed post is deleted for good (with its slugs, tags and revisions) this long after. */
export const TRASH_DAYS = 30;

/**
 * An automatic revision (an autosave) is pruned this long after it was last saved, unless it
 * is its post's newest; manual, restored and imported revisions are kept for as long as the post.
 */
export const AUTO_REVISION_DAYS = 30;

/**
 * The browser's own copy of what the editor holds, in localStorage: written a moment after every
 * change and dropped once the server has it, so a crash, a closed tab or a lost connection
 * loses nothing typed. One copy per post (or "new" for a post not saved yet).
 */
import type { PostDraft } from "./post-draft";

export type LocalCopy = {
  postId: number | null;
  /** The revision the changes were made on. */
  base: number | null;
  /** When it was written (ms since the epoch). */
  savedAt: number;
  draft: PostDraft;
};

const keyOf = (postId: number | null) => `post-editor:${postId ?? "new"}`;

export function readLocalCopy(postId: number | null): LocalCopy | null {
  try {
    const raw = window.localStorage.getItem(keyOf(postId));
    if (!raw) return null;
    const copy = JSON.parse(raw) as LocalCopy;
    return typeof copy?.draft?.html === "string" && typeof copy.savedAt === "number" ? copy : null;
  } catch {
    return null;
  }
}

/** Writes the copy; false when the browser refuses (storage full or disabled). */
export function writeLocalCopy(copy: LocalCopy): boolean {
  try {
    window.localStorage.setItem(keyOf(copy.postId), JSON.stringify(copy));
    return true;
  } catch {
    return false;
  }
}

export function dropLocalCopy(postId: number | null) {
  try {
    window.localStorage.removeItem(keyOf(postId));
  } catch {
    // Nothing to drop where storage is disabled.
  }
}

/** Whether two drafts hold the same post (what a restore would change). */
export const sameDraft = (a: PostDraft, b: PostDraft) =>
  a.title === b.title &&
  a.description === b.description &&
  a.html === b.html &&
  a.slug === b.slug &&
  a.tagText === b.tagText &&
  (a.canonicalUrl ?? "") === (b.canonicalUrl ?? "") &&
  (a.syndicationText ?? "") === (b.syndicationText ?? "") &&
  a.visibility === b.visibility &&
  (a.visibility !== "at" || a.publishAt === b.publishAt);

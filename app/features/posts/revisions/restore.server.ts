/**
 * Restore this version: a revision of a post becomes its head again as a new revision (kind
 * "restored"), so nothing is deleted and the versions since stay in its history. Like an
 * autosave, a draft's row takes it at once; a published or scheduled post's waits as unpublished
 * changes until Update Post (unless the row already holds it).
 */
import type { Database } from "../../../../database/db.server";
import { applyToDraft, rowHolds } from "../draft-row.server";
import { checkBase, lockPost } from "../write.server";
import {
  readRevision,
  recordRevision,
  type RevisionFields,
  type RevisionSource,
} from "./store.server";

export type Restored = {
  id: number;
  /** The post's new head: the next save starts from it. */
  revision: number;
  savedAt: Date;
  /** Whether the post's row holds it; otherwise it waits as unpublished changes. */
  applied: boolean;
  /** What the editor now holds. */
  fields: RevisionFields;
};

/**
 * Restores revision `revisionId` of post `postId`, for an editor that started from
 * `baseRevision`. Null when there is no such post (or it is in the trash) or revision; throws
 * EditConflictError, writing nothing, when the post changed since `baseRevision`.
 */
export async function restoreRevision(
  db: Database,
  postId: number,
  revisionId: number,
  baseRevision: number | null,
  source: RevisionSource,
): Promise<Restored | null> {
  return db.transaction(async (tx) => {
    const post = await lockPost(tx, postId);
    if (!post) return null;
    const revision = await readRevision(tx, postId, revisionId);
    if (!revision) return null;
    await checkBase(tx, post, baseRevision);
    const { title, description, content, slug, tags, publish, canonicalUrl, syndication } =
      revision;
    const fields: RevisionFields = {
      ...{ title, description, content, slug, tags, publish },
      ...{ canonicalUrl, syndication },
    };
    const draft = post.status === "draft";
    if (draft) await applyToDraft(tx, post, fields);
    const applied = draft || rowHolds(post, fields);
    const head = await recordRevision(tx, postId, { kind: "restored", applied, fields, source });
    return { id: postId, revision: head.id, savedAt: head.savedAt, applied, fields };
  });
}

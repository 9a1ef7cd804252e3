/**
 * Autosave: what the editor holds reaches the server within seconds, as a revision. A draft's
 * row follows it (nobody else sees a draft); a published or scheduled post's does not: its
 * autosaves wait as unpublished changes until Update Post, or until Discard changes.
 */

import type { Database } from "../../../database/db.server";
import { blogPosts, type PostStatus, type StoredPublishChoice } from "../../../database/schema";
import { applyToDraft } from "./draft-row.server";
import { recordRevision, type RevisionFields, type RevisionSource } from "./revisions/store.server";
import type { AutosaveInput } from "./schema";
import { checkBase, lockPost, type LockedPost } from "./write.server";

export type Autosaved = {
  id: number;
  /** The post's new head: the next save starts from it. */
  revision: number;
  savedAt: Date;
  /** Whether the post's row holds it (a draft); otherwise it waits as unpublished changes. */
  applied: boolean;
  status: PostStatus;
};

const fieldsOf = (input: AutosaveInput): RevisionFields => ({
  title: input.title,
  description: input.description,
  content: input.content,
  slug: input.slug.trim(),
  tags: input.tags
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean),
  publish: input.publish as StoredPublishChoice,
  canonicalUrl: (input.canonicalUrl ?? "").trim(),
  syndication: (input.syndication ?? "")
    .split(/\r?\n/)
    .map((url) => url.trim())
    .filter(Boolean),
});

/**
 * Autosaves post `id`, or creates it as a draft when null. Null when there is no such post (or
 * it is in the trash); throws EditConflictError when it changed since `baseRevision`.
 */
export async function autosavePost(
  db: Database,
  id: number | null,
  input: AutosaveInput,
  source: RevisionSource,
): Promise<Autosaved | null> {
  const fields = fieldsOf(input);
  return db.transaction(async (tx) => {
    let post: LockedPost | null;
    if (id === null) {
      const [row] = await tx
        .insert(blogPosts)
        .values({ ...rowFields(fields), slug: "", status: "draft" })
        .returning({ id: blogPosts.id });
      post = await lockPost(tx, row!.id);
    } else {
      post = await lockPost(tx, id);
      if (!post) return null;
      await checkBase(tx, post, input.baseRevision);
    }
    const applied = post!.status === "draft";
    if (applied) await applyToDraft(tx, post!, fields);
    const head = await recordRevision(tx, post!.id, { kind: "auto", applied, fields, source });
    return {
      id: post!.id,
      revision: head.id,
      savedAt: head.savedAt,
      applied,
      status: post!.status as PostStatus,
    };
  });
}

const rowFields = (fields: RevisionFields) => ({
  title: fields.title,
  description: fields.description,
  content: fields.content,
});

/**
 * Discard changes: the post's head becomes its row again, as a new revision (kind "restored"),
 * so the discarded autosaves stay in its history. Null when there is no such post.
 */
export async function discardChanges(
  db: Database,
  id: number,
  baseRevision: number | null,
  source: RevisionSource,
): Promise<Autosaved | null> {
  return db.transaction(async (tx) => {
    const post = await lockPost(tx, id);
    if (!post) return null;
    await checkBase(tx, post, baseRevision);
    const head = await recordRevision(tx, id, {
      kind: "restored",
      applied: true,
      fields: { ...post, description: post.description ?? "", publish: { mode: "keep" } },
      source,
    });
    return {
      id,
      revision: head.id,
      savedAt: head.savedAt,
      applied: true,
      status: post.status as PostStatus,
    };
  });
}

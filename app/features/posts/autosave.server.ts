/**
 * Autosave: what the editor holds reaches the server within seconds, as a revision. A draft's
 * row follows it (nobody else sees a draft); a published or scheduled post's does not: its
 * autosaves wait as unpublished changes until Update Post, or until Discard changes.
 */
import { eq, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { blogPosts, type PostStatus, type StoredPublishChoice } from "../../../database/schema";
import { readTags } from "./publishing";
import { recordRevision, type RevisionFields, type RevisionSource } from "./revisions/store.server";
import type { AutosaveInput } from "./schema";
import { checkBase, lockPost, writeTags, type LockedPost } from "./write.server";

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
  const tags = readTags(input.tags);
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
    if (applied) {
      await tx
        .update(blogPosts)
        .set({ ...rowFields(fields), updatedAt: new Date() })
        .where(eq(blogPosts.id, post!.id));
      if ("tags" in tags) await writeTags(tx, post!.id, tags.tags);
      if (post!.publishedAt === null && fields.slug === "") await followTitle(tx, post!.id);
    }
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
 * A draft never published takes its URL from its title as the title is typed: no one has seen
 * the URLs it had, so they are let go rather than kept as redirects.
 */
async function followTitle(tx: Database, id: number) {
  await tx.execute(sql`
    with wanted as (select blog_slug_of(title) as base, slug from blog_posts where id = ${id})
    delete from post_slugs
    where post_id = ${id}
      and not exists (
        select 1 from wanted where slug = base or slug ~ ('^' || base || '-[0-9]+$'))`);
  await tx.execute(sql`
    update blog_posts set slug = blog_free_slug(blog_slug_of(title))
    where id = ${id} and not exists (select 1 from post_slugs where post_id = ${id})`);
}

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

/**
 * What a draft's row takes of a version the owner autosaves or restores: nobody else sees a
 * draft, so its row follows the editor at once (a published or scheduled post's waits for
 * Update Post). Title, description, content and tags; and while it was never published and no
 * URL was typed, a URL that follows its title.
 */
import { eq, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { blogPosts } from "../../../database/schema";
import { readCanonicalUrl, readSyndication } from "./post-links";
import { readTags } from "./publishing";
import type { RevisionFields } from "./revisions/store.server";
import { writeTags, type LockedPost } from "./write.server";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Writes `fields` to the draft `post`'s row, inside the transaction that locked it. */
export async function applyToDraft(tx: Transaction, post: LockedPost, fields: RevisionFields) {
  await tx
    .update(blogPosts)
    .set({
      title: fields.title,
      description: fields.description,
      content: fields.content,
      ...linksOf(fields),
      updatedAt: new Date(),
    })
    .where(eq(blogPosts.id, post.id));
  // Tags still being typed (too many, too long) wait for a save that checks them.
  const tags = readTags(fields.tags);
  if ("tags" in tags) await writeTags(tx, post.id, tags.tags);
  if (post.publishedAt === null && fields.slug === "") await followTitle(tx, post.id);
}

/** Whether the post's row already holds what `fields` would write to it. */
export const rowHolds = (post: LockedPost, fields: RevisionFields) =>
  post.title === fields.title &&
  (post.description ?? "") === fields.description &&
  post.content === fields.content &&
  post.tags.join(",") === fields.tags.join(",") &&
  post.canonicalUrl === fields.canonicalUrl &&
  post.syndication.join("\n") === fields.syndication.join("\n");

/** The links a draft's row takes: those still being typed wait for a save that checks them. */
function linksOf(fields: RevisionFields) {
  const canonical = readCanonicalUrl(fields.canonicalUrl);
  const syndication = readSyndication(fields.syndication);
  return {
    ...("url" in canonical ? { canonicalUrl: canonical.url } : {}),
    ...("urls" in syndication ? { syndication: syndication.urls } : {}),
  };
}

/**
 * A draft never published takes its URL from its title as the title is typed: no one has seen
 * the URLs it had, so they are let go rather than kept as redirects.
 */
async function followTitle(tx: Transaction, id: number) {
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

/**
 * The trash: Delete moves a post here rather than removing it. Its row stays whole (slug and old
 * slugs, tags, state, publication date, revisions), so its URLs stay reserved and Restore gives
 * it back as it was; Delete forever, or the purge TRASH_DAYS later, removes it. Visitors stop
 * seeing it at once: every list, feed, count and tag reads published posts only, and the
 * database tells the page caches when a public post leaves (migration 0009).
 */
import { and, count, desc, eq, ne, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { blogPosts, postSlugs, type PostStatus } from "../../../database/schema";
import { requestCardRefresh } from "~/features/cards/index.server";
import { postKeyOf } from "./read.server";
import { TRASH_DAYS } from "./retention";
import type { TrashPage } from "./trash";

const isTrashed = eq(blogPosts.status, "trashed");

/** Moves a post to the trash, remembering its state; false when there is none outside it. */
export async function trashPost(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .update(blogPosts)
    .set({
      status: "trashed",
      trashedAt: sql`now()`,
      // The right side reads the row as it was: the state it leaves.
      trashedStatus: sql`${blogPosts.status}`,
    })
    .where(and(eq(blogPosts.id, id), ne(blogPosts.status, "trashed")))
    .returning({ id: blogPosts.id });
  return rows.length > 0;
}

/** By the database's clock, so every instance shows the same count as the purge keeps. */
const purgeInDays = sql<number>`greatest(0, ceil(extract(epoch from (${blogPosts.trashedAt} + make_interval(days => ${TRASH_DAYS}::int) - now())) / 86400))::int`;

/** The owner's trash, the most recently deleted first. */
export async function listTrash(
  db: Database,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<TrashPage> {
  const total = await countTrash(db);
  const posts = await db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      slug: blogPosts.slug,
      status: sql<PostStatus>`${blogPosts.trashedStatus}`,
      trashedAt: sql<Date>`${blogPosts.trashedAt}`.mapWith(blogPosts.trashedAt),
      purgeInDays,
    })
    .from(blogPosts)
    .where(isTrashed)
    .orderBy(desc(blogPosts.trashedAt), desc(blogPosts.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { posts, total, pageCount: Math.ceil(total / pageSize) };
}

/** How many posts are in the trash (the owner's list links to it with this count). */
export async function countTrash(db: Database): Promise<number> {
  const [counted] = await db.select({ n: count() }).from(blogPosts).where(isTrashed);
  return counted?.n ?? 0;
}

/** A post in the trash by id, for the notice that offers to undo its deletion. */
export async function findTrashed(
  db: Database,
  id: number,
): Promise<{ id: number; title: string } | null> {
  const [post] = await db
    .select({ id: blogPosts.id, title: blogPosts.title })
    .from(blogPosts)
    .where(and(eq(blogPosts.id, id), isTrashed));
  return post ?? null;
}

/** What Restore answers: the post, where it is, and the state it is back in. */
export type RestoredPost = { id: number; title: string; slug: string; status: PostStatus };

/**
 * Takes a post out of the trash in the state it had, with its slug, tags, publication date and
 * revisions (none of which the trash touched). A scheduled post whose time passed meanwhile
 * comes back published at that time, as the publisher would have made it, and visitors see it
 * at once. Null when the post is not in the trash.
 */
export async function restorePost(db: Database, id: number): Promise<RestoredPost | null> {
  const [row] = await db
    .update(blogPosts)
    .set({
      status: sql`case when ${blogPosts.trashedStatus} = 'scheduled' and ${blogPosts.publishedAt} <= now() then 'published' else ${blogPosts.trashedStatus} end`,
      trashedAt: null,
      trashedStatus: null,
    })
    .where(and(eq(blogPosts.id, id), isTrashed))
    .returning({
      id: blogPosts.id,
      title: blogPosts.title,
      slug: blogPosts.slug,
      status: sql<PostStatus>`${blogPosts.status}`,
    });
  // Its share card may be older than the profile's last change.
  if (row && row.status !== "draft") await requestCardRefresh(db);
  return row ?? null;
}

/**
 * Removes a trashed post for good, with its slugs, tags and revisions (they cascade), and answers
 * what it removed; null for a post that is not in the trash, so nothing outside it can be removed
 * this way.
 */
export async function deleteForever(
  db: Database,
  id: number,
): Promise<{ id: number; title: string } | null> {
  const [row] = await db
    .delete(blogPosts)
    .where(and(eq(blogPosts.id, id), isTrashed))
    .returning({ id: blogPosts.id, title: blogPosts.title });
  return row ?? null;
}

/**
 * Whether `/blog/{segment}` (its id, slug or an old slug) names a post visitors could read
 * before it went to the trash: its URL then answers 410 Gone. A trashed draft or scheduled
 * post was never public, so its URL answers 404 like any that names nothing.
 */
export async function wasPublicBeforeTrash(db: Database, segment: string): Promise<boolean> {
  const key = postKeyOf(segment);
  if (key === null) return false;
  const gone = and(isTrashed, eq(blogPosts.trashedStatus, "published"));
  const [row] =
    "id" in key
      ? await db
          .select({ id: blogPosts.id })
          .from(blogPosts)
          .where(and(eq(blogPosts.id, key.id), gone))
      : await db
          .select({ id: blogPosts.id })
          .from(postSlugs)
          .innerJoin(blogPosts, eq(blogPosts.id, postSlugs.postId))
          .where(and(eq(postSlugs.slug, key.slug), gone));
  return row !== undefined;
}

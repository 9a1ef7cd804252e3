/**
 * The posts feature's clean-ups, run by the job queue (app/lib/jobs.server.ts) as recurring
 * jobs: the trash emptied of posts older than TRASH_DAYS, and autosaves older than
 * AUTO_REVISION_DAYS pruned. Each is one idempotent statement or two, by the database's clock:
 * two instances running one at once delete each row once, and a run repeated deletes nothing.
 */
import { alias } from "drizzle-orm/pg-core";
import { and, eq, exists, gt, inArray, lt, not, notExists, or, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { blogPosts, postRevisionBases, postRevisions } from "../../../database/schema";
import { HOUR_MS } from "~/lib/format";
import type { JobHandler } from "~/lib/jobs.server";
import { AUTO_REVISION_DAYS, TRASH_DAYS } from "./retention";

/** How often each clean-up runs: a post leaves the trash at most this long after its time. */
export const PURGE_EVERY_MS = 6 * HOUR_MS;

/** `now() - days` by the database's clock. */
const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;

/**
 * Deletes for good the posts trashed more than TRASH_DAYS ago; their tags, slugs, revisions
 * and revision bases go with them (foreign keys, on delete cascade). Returns how many.
 */
export async function purgeTrash(db: Database): Promise<number> {
  const rows = await db
    .delete(blogPosts)
    .where(and(eq(blogPosts.status, "trashed"), lt(blogPosts.trashedAt, daysAgo(TRASH_DAYS))))
    .returning({ id: blogPosts.id });
  return rows.length;
}

const newer = alias(postRevisions, "newer");
/** A revision of the same post saved after the one deleted (`applied`: one blog_posts holds). */
const newerRevision = (db: Database, applied: boolean) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(newer)
      .where(
        and(
          eq(newer.postId, postRevisions.postId),
          gt(newer.id, postRevisions.id),
          applied ? eq(newer.applied, true) : undefined,
        ),
      ),
  );

/**
 * Deletes autosaves last saved more than AUTO_REVISION_DAYS ago, but never a post's newest
 * revision (its head: what the editor opens, unapplied edits included) nor the newest applied
 * one (what visitors read); manual, restored and imported revisions stay as long as the post.
 * Then deletes the bases no revision uses any more. Returns how many of each went.
 */
export async function pruneRevisions(db: Database): Promise<{ revisions: number; bases: number }> {
  const revisions = await db
    .delete(postRevisions)
    .where(
      and(
        eq(postRevisions.kind, "auto"),
        lt(postRevisions.savedAt, daysAgo(AUTO_REVISION_DAYS)),
        newerRevision(db, false),
        or(not(postRevisions.applied), newerRevision(db, true)),
      ),
    )
    .returning({ id: postRevisions.id });
  // SKIP LOCKED: a base a save is naming this moment (its foreign key check holds a lock on the
  // row) is left alone; once that save commits, the base is used again.
  const orphans = db
    .select({ id: postRevisionBases.id })
    .from(postRevisionBases)
    .where(
      notExists(
        db
          .select({ one: sql`1` })
          .from(postRevisions)
          .where(eq(postRevisions.baseId, postRevisionBases.id)),
      ),
    )
    .for("update", { skipLocked: true });
  const bases = await db
    .delete(postRevisionBases)
    .where(inArray(postRevisionBases.id, orphans))
    .returning({ id: postRevisionBases.id });
  return { revisions: revisions.length, bases: bases.length };
}

/** The posts feature's recurring jobs (server/jobs.ts runs them). */
export const POST_JOBS: readonly JobHandler[] = [
  {
    kind: "posts.purge-trash",
    everyMs: PURGE_EVERY_MS,
    run: async (db) => ({ posts: await purgeTrash(db) }),
  },
  {
    kind: "posts.prune-revisions",
    everyMs: PURGE_EVERY_MS,
    run: async (db) => pruneRevisions(db),
  },
];

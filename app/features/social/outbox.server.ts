/**
 * Publishing federates. migration 0019's trigger queues `social.post-changed` (keyed per post)
 * whenever a post may have become public, changed while public, or stopped being public; this
 * job decides from what was last sent about the post (social_outbox) whether that is a Create,
 * an Update or a Delete, or nothing, stores the activity in the outbox and queues one delivery
 * per inbox (a follower's shared inbox, or its own when it has none). Safe to run twice: under
 * a lock per post, and a second run finds the activity already sent.
 *
 * A post brought in by an import (imported_posts) is an archive, not news: it is never announced,
 * neither when imported (an old blog's thousand posts would flood every follower's timeline) nor
 * when edited later. Its Article is still served to whoever asks for its URL.
 */
import { Create, Delete, Tombstone, Update, PUBLIC_COLLECTION } from "@fedify/vocab";
import { desc, eq, sql } from "drizzle-orm";

import type { Job } from "~/lib/jobs.server";
import { lockUntilCommit, type Database } from "../../../database/db.server";
import {
  importedPosts,
  socialFollowers,
  socialOutbox,
  type OutboxType,
} from "../../../database/schema";
import { articleOf, instantOf } from "./article.server";
import { socialConfig } from "./config.server";
import { queueDelivery } from "./delivery.server";
import { POST_CHANGED_JOB } from "./jobs.server";
import { socialUrls } from "./urls";

/** What Create and Update carry that matters to a reader: a change in it is an Update. */
const fingerprint = (article: Record<string, unknown>) => {
  const { updated: _updated, "@context": _context, ...rest } = article;
  return canonical(rest);
};

/** JSON with object keys sorted: stored as jsonb, the activity comes back in another order. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : value !== null && typeof value === "object"
      ? `{${Object.keys(value)
          .sort()
          .map(
            (key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`,
          )
          .join(",")}}`
      : JSON.stringify(value);

/** Sends what the post's state calls for; returns the activity's type, or null for none. */
export async function federatePost(
  db: Database,
  siteUrl: string,
  postId: number,
): Promise<{ type: OutboxType; inboxes: number } | null> {
  const urls = socialUrls(siteUrl);
  return db.transaction(async (tx) => {
    await lockUntilCommit(tx, `${POST_CHANGED_JOB}:${postId}`);
    const [last] = await tx
      .select()
      .from(socialOutbox)
      .where(eq(socialOutbox.postId, postId))
      .orderBy(desc(socialOutbox.id))
      .limit(1);
    const sent = last && last.type !== "Delete" ? last : null;
    if (!last && (await isImported(tx, postId))) return null;
    const article = await articleOf(tx, siteUrl, postId);
    const actor = new URL(urls.actor);
    const audience = { to: PUBLIC_COLLECTION, cc: new URL(urls.followers) };
    let activity: Create | Update | Delete;
    if (article) {
      const type = sent ? "update" : "create";
      const init = {
        id: new URL(urls.activity(type, `${postId}-${crypto.randomUUID()}`)),
        actor,
        object: article,
        published: instantOf(new Date()),
        ...audience,
      };
      activity = sent ? new Update(init) : new Create(init);
    } else {
      if (!sent) return null;
      const id = new URL(urls.article(postId));
      activity = new Delete({
        id: new URL(urls.activity("delete", `${postId}-${crypto.randomUUID()}`)),
        actor,
        object: new Tombstone({ id }),
        published: instantOf(new Date()),
        ...audience,
      });
    }
    // Fedify's own compaction (what it sends with), not the JSON-LD library's: the same
    // document in a fraction of the time, once per change, on the thread that serves pages.
    const json = (await activity.toJsonLd()) as Record<string, unknown>;
    if (article && sent) {
      const before = (sent.activity as { object?: unknown }).object as Record<string, unknown>;
      const after = json.object as Record<string, unknown>;
      if (before && fingerprint(before) === fingerprint(after)) return null;
    }
    const type: OutboxType =
      activity instanceof Create ? "Create" : activity instanceof Update ? "Update" : "Delete";
    const activityId = activity.id!.href;
    await tx.insert(socialOutbox).values({ activityId, type, postId, activity: json });
    // Serialized once: every inbox is sent these bytes (only the signature differs).
    const body = JSON.stringify(json);
    const inboxes = await tx
      .select({
        inbox: sql<string>`coalesce(${socialFollowers.sharedInboxUrl}, ${socialFollowers.inboxUrl})`,
        followers: sql<
          string[]
        >`array_agg(${socialFollowers.actorUrl} order by ${socialFollowers.id})`,
      })
      .from(socialFollowers)
      .groupBy(sql`1`);
    for (const { inbox, followers } of inboxes) {
      await queueDelivery(tx, { body, activityId, inbox, followers });
    }
    return { type, inboxes: inboxes.length };
  });
}

const isImported = async (db: Database, postId: number) =>
  (
    await db
      .select({ postId: importedPosts.postId })
      .from(importedPosts)
      .where(eq(importedPosts.postId, postId))
      .limit(1)
  ).length > 0;

/** A `social.post-changed` job (queued by migration 0019's trigger). */
export async function runPostChanged(db: Database, job: Job) {
  const postId = Number((job.payload as { postId?: unknown }).postId);
  if (!Number.isInteger(postId)) return { skipped: "no post id" };
  const sent = await federatePost(db, socialConfig().siteUrl, postId);
  return { postId, sent: sent?.type ?? null, inboxes: sent?.inboxes ?? 0 };
}

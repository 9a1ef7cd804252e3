/**
 * Sending Webmentions (W3C Webmention, 3.1): when a post is published or its text changes while
 * published, the database queues `social.webmention-send` for it (migration 0020). That job
 * lists the pages outside the site the post links to, adds those it linked to last time (an edit
 * that removed a link, or unpublishing or trashing the post, notifies those pages too: the spec's
 * update and delete cases), and queues one `social.webmention-post` per page:
 * each discovers the page's endpoint and posts source and target, retried by the queue.
 */
import { and, eq, inArray, like } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { blogPosts, jobs, socialWebmentionTargets } from "../../../database/schema";
import { postPath } from "../posts";
import { enqueue, type Job, type JobHandler } from "~/lib/jobs.server";
import { FetchRefused, safeFetch } from "~/lib/safe-fetch.server";

import { discoverEndpoint } from "./discover.server";
import { externalLinks } from "./links.server";
import { socialConfig } from "./config.server";
import { WEBMENTION_LIMITS } from "./webmention";

export const WEBMENTION_SEND = "social.webmention-send";
export const WEBMENTION_POST = "social.webmention-post";

/**
 * An imported post is an archive, not news: the job its insertion queued (migration 0020's
 * trigger) is dropped in the import's own transaction, so the pages an old blog linked to are
 * not all told again by the move (as the federation announces no imported post:
 * ./outbox.server.ts). The job was never visible to a worker. A later edit of the post's text
 * here sends its Webmentions as any post's edit does.
 */
export async function dropImportedPostWebmentions(tx: Database, postId: number) {
  await tx
    .delete(jobs)
    .where(and(eq(jobs.kind, WEBMENTION_SEND), like(jobs.key, `${WEBMENTION_SEND}:${postId}:%`)));
}

/** Queues a post's Webmentions, one job per page, and remembers the pages it links to now. */
export async function queuePostWebmentions(db: Database, postId: number) {
  const siteUrl = socialConfig().siteUrl;
  const [post] = await db
    .select({
      content: blogPosts.content,
      contentEn: blogPosts.contentEn,
      status: blogPosts.status,
    })
    .from(blogPosts)
    .where(eq(blogPosts.id, postId));
  if (!post) return { queued: 0 };
  // A post no longer public links to nothing: the pages it linked to are told, and find it gone.
  const now =
    post.status === "published"
      ? externalLinks(
          `${post.content}\n${post.contentEn ?? ""}`,
          siteUrl,
          WEBMENTION_LIMITS.linksPerPost,
        )
      : [];
  return db.transaction(async (tx) => {
    const before = await tx
      .select({ target: socialWebmentionTargets.target })
      .from(socialWebmentionTargets)
      .where(eq(socialWebmentionTargets.postId, postId));
    const removed = before.map((row) => row.target).filter((target) => !now.includes(target));
    for (const target of [...now, ...removed]) {
      await enqueue(tx, {
        kind: WEBMENTION_POST,
        key: `${WEBMENTION_POST}:${postId} ${target}`,
        payload: { postId, target },
      });
    }
    if (removed.length > 0) {
      await tx
        .delete(socialWebmentionTargets)
        .where(
          and(
            eq(socialWebmentionTargets.postId, postId),
            inArray(socialWebmentionTargets.target, removed),
          ),
        );
    }
    if (now.length > 0) {
      await tx
        .insert(socialWebmentionTargets)
        .values(now.map((target) => ({ postId, target })))
        .onConflictDoNothing();
    }
    return { queued: now.length + removed.length, removed: removed.length };
  });
}

/** Discovers the target's endpoint and tells it the post mentions it (or no longer does). */
export async function sendWebmention(db: Database, job: Job) {
  const { postId, target } = job.payload as { postId: number; target: string };
  const [post] = await db
    .select({ slug: blogPosts.slug })
    .from(blogPosts)
    .where(eq(blogPosts.id, postId));
  if (!post) return { outcome: "no-post" };
  const source = `${socialConfig().siteUrl}${postPath(post.slug)}`;
  let endpoint: string | null;
  try {
    endpoint = await discoverEndpoint(target);
  } catch (error) {
    // A private address or a page too large stays so; the network may come back.
    if (error instanceof FetchRefused && error.reason !== "network" && error.reason !== "timeout") {
      return { outcome: "refused", reason: error.reason };
    }
    throw error;
  }
  if (endpoint === null) return { outcome: "no-endpoint" };
  const response = await safeFetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ source, target }).toString(),
  });
  if (response.status >= 500 || response.status === 429) {
    throw new Error(`${endpoint} answered ${response.status}.`);
  }
  return { outcome: response.status < 300 ? "sent" : "refused", status: response.status, endpoint };
}

export const WEBMENTION_SEND_JOBS: readonly JobHandler[] = [
  { kind: WEBMENTION_SEND, run: (db, job) => queuePostWebmentions(db, Number(job.payload.postId)) },
  { kind: WEBMENTION_POST, run: sendWebmention },
];

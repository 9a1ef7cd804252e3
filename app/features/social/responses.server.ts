/**
 * Responses to posts from elsewhere: replies, likes and boosts over ActivityPub, and
 * Webmentions. Stored per post and source; content goes through the posts' own sanitizer before
 * it is stored. Likes and boosts only count, so they are stored approved; replies and mentions
 * wait for the owner (`pending`), and nothing pending or rejected is ever shown.
 */
import { and, eq, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import {
  blogPosts,
  postSlugs,
  socialResponses,
  type ResponseKind,
  type ResponseSource,
} from "../../../database/schema";
import { loadPostSanitizer } from "../posts/index.server";
import { isBlocked } from "./blocks.server";

export type ResponseInput = {
  postId: number;
  source: ResponseSource;
  kind: ResponseKind;
  /** The remote object's or activity's id, or the webmention's source page. */
  sourceUrl: string;
  authorName?: string | null;
  authorUrl?: string | null;
  authorPhoto?: string | null;
  /** As received: sanitized here. */
  contentHtml?: string | null;
  publishedAt?: Date | null;
};

export type RecordOutcome = "stored" | "blocked" | "no-post";

/** Only these kinds are shown without the owner's approval (they show no one's words). */
const COUNTED_ONLY: readonly ResponseKind[] = ["like", "announce"];

/** The largest id a post can have (an `integer` column). */
const MAX_ID = 2 ** 31 - 1;

/** Text fields from outside, bounded so one response cannot fill a page. */
const MAX_FIELD_CHARS = 500;
const MAX_CONTENT_CHARS = 20_000;

const bounded = (value: string | null | undefined, max: number) =>
  value == null || value.trim() === "" ? null : value.trim().slice(0, max);

/** An http(s) URL, or null: nothing else may become a link or an image's source. */
const webUrl = (value: string | null | undefined) => {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
};

/**
 * Stores a response, or updates the one from the same source about the same post (keeping the
 * owner's decision on it). Dropped when its source or author is blocked, or the post is not
 * published.
 */
export async function recordResponse(db: Database, input: ResponseInput): Promise<RecordOutcome> {
  if (await isBlocked(db, input.sourceUrl)) return "blocked";
  if (input.authorUrl && (await isBlocked(db, input.authorUrl))) return "blocked";
  const [post] = await db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(and(eq(blogPosts.id, input.postId), eq(blogPosts.status, "published")));
  if (!post) return "no-post";
  const sanitize = await loadPostSanitizer();
  const content = bounded(input.contentHtml, MAX_CONTENT_CHARS);
  const row = {
    postId: input.postId,
    source: input.source,
    kind: input.kind,
    sourceUrl: input.sourceUrl,
    authorName: bounded(input.authorName, MAX_FIELD_CHARS),
    authorUrl: webUrl(input.authorUrl),
    authorPhoto: webUrl(input.authorPhoto),
    contentHtml: content === null ? null : sanitize(content),
    publishedAt: input.publishedAt ?? null,
    status: COUNTED_ONLY.includes(input.kind) ? ("approved" as const) : ("pending" as const),
  };
  const { status: _status, ...changes } = row;
  await db
    .insert(socialResponses)
    .values(row)
    .onConflictDoUpdate({
      target: [socialResponses.sourceUrl, socialResponses.postId],
      set: { ...changes, updatedAt: sql`now()` },
    });
  return "stored";
}

/** Removes every response from this source (a deleted reply, an undone like, a gone page). */
export async function removeResponses(db: Database, sourceUrl: string): Promise<number> {
  const removed = await db
    .delete(socialResponses)
    .where(eq(socialResponses.sourceUrl, sourceUrl))
    .returning({ id: socialResponses.id });
  return removed.length;
}

/**
 * The published post a URL of this site names: its page (`/blog/{slug}`, an old slug, or
 * `/blog/{id}`) or its ActivityPub object (`/ap/posts/{id}`). Null for anything else.
 */
export async function postIdForUrl(
  db: Database,
  siteUrl: string,
  url: string,
): Promise<number | null> {
  let target: URL;
  let site: URL;
  try {
    target = new URL(url);
    site = new URL(siteUrl);
  } catch {
    return null;
  }
  if (target.origin !== site.origin) return null;
  const base = site.pathname.replace(/\/+$/, "");
  if (!target.pathname.startsWith(`${base}/`)) return null;
  const path = target.pathname.slice(base.length).replace(/\/+$/, "");
  const match = /^\/(?:blog|ap\/posts)\/([^/]+)$/.exec(path);
  if (!match) return null;
  const segment = decodeURIComponent(match[1]!);
  const byId =
    /^[1-9][0-9]{0,9}$/.test(segment) && Number(segment) <= MAX_ID ? Number(segment) : null;
  if (path.startsWith("/ap/posts/") && byId === null) return null;
  const [found] =
    byId !== null
      ? await db
          .select({ id: blogPosts.id })
          .from(blogPosts)
          .where(and(eq(blogPosts.id, byId), eq(blogPosts.status, "published")))
      : await db
          .select({ id: blogPosts.id })
          .from(postSlugs)
          .innerJoin(blogPosts, eq(blogPosts.id, postSlugs.postId))
          .where(and(eq(postSlugs.slug, segment), eq(blogPosts.status, "published")));
  return found?.id ?? null;
}

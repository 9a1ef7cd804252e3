/**
 * Receiving Webmentions (W3C Webmention, 3.2): the endpoint checks what it can without fetching
 * anything (both URLs, the target a published post of this site) and queues the verification;
 * the job fetches the source, checks it links to the target, reads its microformats2 and stores
 * the response (pending for the owner, or counted), or removes what the source left before when
 * it no longer links (or is gone: 404, 410).
 */
import { and, count, eq, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { jobs, socialResponses } from "../../../database/schema";
import { enqueue, type Job, type JobHandler } from "~/lib/jobs.server";
import { FetchRefused, safeFetch } from "~/lib/safe-fetch.server";

import { hostOf, isBlocked } from "./blocks.server";
import { linksTo } from "./links.server";
import { readSource } from "./microformats.server";
import { postIdForUrl, recordResponse } from "./responses.server";
import { socialConfig } from "./config.server";
import { WEBMENTION_LIMITS, WEBMENTION_TEXT } from "./webmention";

export const WEBMENTION_VERIFY = "social.webmention-verify";

export type WebmentionAnswer = { status: 202 | 400 | 429; message: string };

const httpUrl = (value: string) => {
  if (value.length > WEBMENTION_LIMITS.urlChars) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
};

/** The endpoint: checks, then queues the verification (once per source and target). */
export async function receiveWebmention(
  db: Database,
  siteUrl: string,
  input: { source: unknown; target: unknown },
): Promise<WebmentionAnswer> {
  const { source, target } = input;
  if (typeof source !== "string" || typeof target !== "string" || !source || !target) {
    return { status: 400, message: WEBMENTION_TEXT.missing };
  }
  const sourceUrl = httpUrl(source.trim());
  const targetUrl = httpUrl(target.trim());
  if (!sourceUrl || !targetUrl) return { status: 400, message: WEBMENTION_TEXT.notHttp };
  sourceUrl.hash = "";
  targetUrl.hash = "";
  if (sourceUrl.href === targetUrl.href) return { status: 400, message: WEBMENTION_TEXT.same };
  if ((await postIdForUrl(db, siteUrl, targetUrl.href)) === null) {
    return { status: 400, message: WEBMENTION_TEXT.notPost };
  }
  const accepted = { status: 202, message: WEBMENTION_TEXT.accepted } as const;
  // A blocked sender is answered as anyone else, and nothing is done.
  if (await isBlocked(db, sourceUrl.href)) return accepted;
  const sourceHost = hostOf(sourceUrl.href)!;
  const [waiting] = await db
    .select({ n: count() })
    .from(jobs)
    .where(
      and(eq(jobs.kind, WEBMENTION_VERIFY), sql`${jobs.payload}->>'sourceHost' = ${sourceHost}`),
    );
  if ((waiting?.n ?? 0) >= WEBMENTION_LIMITS.pendingPerSourceHost) {
    return { status: 429, message: WEBMENTION_TEXT.tooMany };
  }
  await enqueue(db, {
    kind: WEBMENTION_VERIFY,
    key: `${WEBMENTION_VERIFY}:${sourceUrl.href} ${targetUrl.href}`,
    payload: { source: sourceUrl.href, target: targetUrl.href, sourceHost },
  });
  return accepted;
}

/** Forgets what a source said about a post. */
async function forget(db: Database, source: string, postId: number) {
  const removed = await db
    .delete(socialResponses)
    .where(and(eq(socialResponses.sourceUrl, source), eq(socialResponses.postId, postId)))
    .returning({ id: socialResponses.id });
  return removed.length;
}

/** The verification job: fetch, check the link, read, store or forget. Safe to run twice. */
export async function verifyWebmention(db: Database, job: Job) {
  const { source, target } = job.payload as { source: string; target: string };
  const postId = await postIdForUrl(db, socialConfig().siteUrl, target);
  if (postId === null) return { outcome: "no-post" };
  if (await isBlocked(db, source)) return { outcome: "blocked" };
  let response;
  try {
    response = await safeFetch(source, { headers: { accept: "text/html, */*;q=0.5" } });
  } catch (error) {
    // A refusal is final (a private address, too large, too many redirects); a network
    // failure or a timeout is tried again by the queue.
    if (error instanceof FetchRefused && error.reason !== "network" && error.reason !== "timeout") {
      return {
        outcome: "refused",
        reason: error.reason,
        removed: await forget(db, source, postId),
      };
    }
    throw error;
  }
  if (response.status === 404 || response.status === 410) {
    return { outcome: "gone", removed: await forget(db, source, postId) };
  }
  if (response.status >= 500) throw new Error(`The source answered ${response.status}.`);
  if (response.status >= 400) return { outcome: "unreadable", status: response.status };
  const type = response.headers.get("content-type") ?? "";
  const html = response.text();
  const links = /html/i.test(type) ? linksTo(html, response.url, target) : html.includes(target);
  if (!links) return { outcome: "no-link", removed: await forget(db, source, postId) };
  const entry = /html/i.test(type)
    ? await readSource(html, response.url, target)
    : { kind: "mention" as const };
  const stored = await recordResponse(db, {
    postId,
    source: "webmention",
    sourceUrl: source,
    ...entry,
  });
  return { outcome: stored, kind: entry.kind };
}

export const WEBMENTION_RECEIVE_JOBS: readonly JobHandler[] = [
  { kind: WEBMENTION_VERIFY, run: verifyWebmention },
];

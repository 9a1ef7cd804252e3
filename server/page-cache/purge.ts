import { createHmac, timingSafeEqual } from "node:crypto";

import { eq, inArray } from "drizzle-orm";
import { generatePath, type Params } from "react-router";

import type { CacheTag } from "../../app/lib/cache-tags";
import { enqueue, type JobHandler } from "../../app/lib/jobs.server";
import { SECOND_MS } from "../../app/lib/format";
import { CDN_PURGE } from "../../app/lib/limits";
import { errorMessage, logEvent } from "../../app/lib/log.server";
import { safeFetch } from "../../app/lib/safe-fetch.server";
import { policyOf as policyOfRoute } from "../../app/route-policy";
import type { Database } from "../../database/db.server";
import { jobs, postSlugs, postTags } from "../../database/schema";
import type { RouteRecord } from "../routing";
import { isBarrier, tagsOfChange } from "./link";

/**
 * The CDN purge (docs/decisions/043-cdn-purge.md): with CDN_PURGE_URL set, each change notice
 * that drops pages from the page cache (./link.ts) also becomes one durable job that POSTs the
 * public URLs the change affects to that URL, signed with CDN_PURGE_SECRET, so a CDN in front
 * drops them at once instead of after `s-maxage`.
 *
 * The body is JSON, either `{"urls":["https://site/blog", …]}` or `{"all":true}` (the change
 * may show on pages no list can name: every post's page, say). Headers:
 * - `X-Purge-Timestamp`: the sending time, in whole seconds since 1970 (UTC);
 * - `X-Signature`: `sha256=` and the hex HMAC-SHA256, keyed by the secret, of
 *   `<timestamp>.<body>`. A receiver checks both, and refuses a timestamp more than
 *   CDN_PURGE.maxSkewMs from its clock (`verifyPurge` does all of it).
 */

/** The job's kind (server/jobs.ts runs it). */
export const CDN_PURGE_KIND = "page-cache.cdn-purge";

export type PurgeBody = { all: true } | { urls: string[] };

/** A route whose responses CDNs keep: its full path pattern, and what its pages show. */
export type PurgeTarget = {
  id: string;
  /** React Router's pattern: `/blog/:slug`. */
  path: string;
  /** The pattern's parameters (`slug`). */
  params: string[];
  /** A page (it has a component), so client navigations also ask for its `.data`. */
  page: boolean;
  tags: (params: Params) => readonly CacheTag[];
};

/** A route of the build, as server/routing.ts lists it, and whether it renders a page. */
type BuildRoute = RouteRecord & { module?: { default?: unknown } };

/**
 * The public routes of a build (app/route-policy.ts `cache: "public"`), each with its full
 * path: the one list of what a change can make stale, derived from the route policy's tags.
 */
export function purgeTargetsOf(
  records: Iterable<BuildRoute>,
  policyOf = policyOfRoute,
): PurgeTarget[] {
  const byId = new Map([...records].map((r) => [r.id, r]));
  const fullPath = (record: BuildRoute): string => {
    const parent = record.parentId ? byId.get(record.parentId) : undefined;
    const base = parent ? fullPath(parent) : "";
    const own = record.path ?? "";
    return own === "" ? base : `${base.replace(/\/$/, "")}/${own}`;
  };
  const targets: PurgeTarget[] = [];
  for (const record of byId.values()) {
    const policy = policyOf(record.id);
    if (policy?.cache !== "public" || !policy.tags) continue;
    const path = fullPath(record) || "/";
    const segments = path.split("/");
    // A splat matches unboundedly many paths: no list names them.
    if (segments.includes("*")) continue;
    targets.push({
      id: record.id,
      path: path.startsWith("/") ? path : `/${path}`,
      params: segments.filter((s) => s.startsWith(":")).map((s) => s.slice(1).replace(/\?$/, "")),
      page: record.module?.default !== undefined,
      tags: policy.tags,
    });
  }
  return targets;
}

/** The values a change gives the routes' parameters (`slug`, `tag`); null: unknown. */
export type ChangedValues = Readonly<Record<string, readonly string[]>> | null;

/**
 * The URLs a change notice makes stale, or everything. A route without parameters is named
 * when it shows one of the change's tags; one with parameters only when the change gives every
 * parameter its values (a post's change: its slugs, old ones included, and its tags); otherwise
 * everything goes. Data requests of client navigations (`/blog.data`, `/_root.data` for `/`) go
 * with their pages. Query variants (`?page=2`, `?q=`) are not named: they keep until s-maxage.
 */
export function purgeBodyOf(
  notice: string,
  targets: readonly PurgeTarget[],
  values: ChangedValues,
  siteUrl: string,
): PurgeBody {
  const changed = tagsOfChange(notice);
  if (changed === "all") return { all: true };
  const shows = (tags: readonly CacheTag[]) => tags.some((tag) => changed.includes(tag));
  const paths = new Set<string>();
  for (const target of targets) {
    if (!shows(target.tags({}))) continue;
    const paramSets = expand(target.params, values);
    if (paramSets === null) return { all: true };
    for (const params of paramSets) {
      if (!shows(target.tags(params))) continue;
      const path = generatePath(target.path, params);
      paths.add(path);
      if (target.page) paths.add(path === "/" ? "/_root.data" : `${path}.data`);
    }
  }
  return { urls: [...paths].sort().map((path) => `${siteUrl}${path}`) };
}

/** Every combination of the parameters' values; null when one has none known. */
function expand(params: readonly string[], values: ChangedValues): Params[] | null {
  let sets: Params[] = [{}];
  for (const name of params) {
    const known = values?.[name];
    if (!known) return null;
    sets = sets.flatMap((set) => known.map((value) => ({ ...set, [name]: value })));
  }
  return sets;
}

/** What a post's change gives the parameters, or null when one of its posts is gone. */
export async function changedValuesOf(db: Database, notice: string): Promise<ChangedValues> {
  const ids = /^posts:(\d+(?:,\d+)*)$/.exec(notice)?.[1]?.split(",").map(Number);
  if (!ids) return {};
  const slugs = await db
    .select({ postId: postSlugs.postId, slug: postSlugs.slug })
    .from(postSlugs)
    .where(inArray(postSlugs.postId, ids));
  // A post deleted for good has no slug left: its page's URL is unknown.
  if (new Set(slugs.map((s) => s.postId)).size < new Set(ids).size) return null;
  const tags = await db
    .selectDistinct({ tag: postTags.tag })
    .from(postTags)
    .where(inArray(postTags.postId, ids));
  return { slug: slugs.map((s) => s.slug).sort(), tag: tags.map((t) => t.tag).sort() };
}

/** The headers that sign `body` at `timestamp` (seconds). */
export function signPurge(body: string, secret: string, timestamp: number) {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { "x-purge-timestamp": String(timestamp), "x-signature": `sha256=${mac}` };
}

/** A receiver's check: the signature is the secret's, and the timestamp is recent. */
export function verifyPurge(
  body: string,
  headers: { timestamp: string | null; signature: string | null },
  secret: string,
  now = Date.now(),
): boolean {
  if (!headers.timestamp || !headers.signature || !/^\d+$/.test(headers.timestamp)) return false;
  const timestamp = Number(headers.timestamp);
  if (Math.abs(now - timestamp * SECOND_MS) > CDN_PURGE.maxSkewMs) return false;
  const expected = Buffer.from(signPurge(body, secret, timestamp)["x-signature"]);
  const given = Buffer.from(headers.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type CdnPurgeConfig = {
  url: string;
  secret: string;
  /** SITE_URL, without a trailing slash: the URLs sent are absolute. */
  siteUrl: string;
  targets: readonly PurgeTarget[];
};

let config: CdnPurgeConfig | null = null;

/** This process's purge settings (server/app.ts at start-up; null: none). */
export function configureCdnPurge(next: CdnPurgeConfig | null) {
  config = next;
}

const keyOf = (notice: string) => `${CDN_PURGE_KIND}:${notice}`;

/**
 * Offers the purge job of a change notice (null: notices may have been missed, so everything).
 * Every instance offers it; the job's key makes it one while it waits CDN_PURGE.delayMs.
 */
export async function offerCdnPurge(db: Database, notice: string | null): Promise<number | null> {
  const name = notice ?? "all";
  return enqueue(db, {
    kind: CDN_PURGE_KIND,
    key: keyOf(name),
    payload: { notice: name },
    runAt: new Date(Date.now() + CDN_PURGE.delayMs),
  });
}

/**
 * The change notices' follower for the purge: offers each notice's job, and wakes the job
 * worker when it is due.
 */
export function cdnPurgeOnChange(db: Database, wake: () => void) {
  return (payload: string | null) => {
    if (!config || (payload !== null && isBarrier(payload))) return;
    offerCdnPurge(db, payload).then(
      () => setTimeout(wake, CDN_PURGE.delayMs).unref(),
      (error: unknown) => logEvent("error", "cdn-purge-offer", { error: errorMessage(error) }),
    );
  };
}

export const CDN_PURGE_JOB: JobHandler = {
  kind: CDN_PURGE_KIND,
  prompt: true,
  async run(db, job) {
    // From here on a change offers a job of its own: this one may read the posts before it.
    await db.update(jobs).set({ key: null }).where(eq(jobs.id, job.id));
    // An instance without CDN_PURGE_URL (it was unset since): nothing to send.
    if (!config) return { sent: false };
    const notice = String((job.payload as { notice?: unknown }).notice ?? "all");
    const values = await changedValuesOf(db, notice);
    const purge = purgeBodyOf(notice, config.targets, values, config.siteUrl);
    const body = JSON.stringify(purge);
    const answer = await safeFetch(config.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...signPurge(body, config.secret, Math.floor(Date.now() / SECOND_MS)),
      },
      body,
      // The operator's own setting, like DATABASE_URL: a purge endpoint on loopback or the
      // private network (nginx's purge location) is the usual case.
      allowPrivate: true,
      timeoutMs: CDN_PURGE.timeoutMs,
    });
    if (answer.status < 200 || answer.status > 299) {
      throw new Error(`The CDN purge URL answered ${answer.status}`);
    }
    return { notice, urls: "all" in purge ? "all" : purge.urls.length };
  },
};

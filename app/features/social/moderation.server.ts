/**
 * The owner's side of the social web (/admin/social): the followers, the responses waiting for a
 * decision, the block list, and what each button does. A block also removes what the blocked
 * sender already left here (followers, responses), so the block list is the whole truth.
 */
import { asc, count, desc, eq, inArray, like, or } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import {
  blogPosts,
  socialBlocks,
  socialFollowers,
  socialResponses,
  type SocialBlock,
} from "../../../database/schema";
import { FOLLOWERS_PAGE_SIZE, QUEUE_PAGE_SIZE } from "./admin";
import { blockActor, blockDomain, domainOf, hostOf, listBlocks } from "./blocks.server";

/** One page of the followers, newest first. */
export async function listFollowers(db: Database, page: number) {
  const [total] = await db.select({ n: count() }).from(socialFollowers);
  const pageCount = Math.max(1, Math.ceil((total?.n ?? 0) / FOLLOWERS_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pageCount);
  const rows = await db
    .select()
    .from(socialFollowers)
    .orderBy(desc(socialFollowers.createdAt), desc(socialFollowers.id))
    .limit(FOLLOWERS_PAGE_SIZE)
    .offset((current - 1) * FOLLOWERS_PAGE_SIZE);
  return { rows, total: total?.n ?? 0, page: current, pageCount };
}

/** The replies and mentions waiting for the owner, oldest first, with their post's title. */
export function listPending(db: Database) {
  return db
    .select({
      id: socialResponses.id,
      postId: socialResponses.postId,
      postTitle: blogPosts.title,
      postSlug: blogPosts.slug,
      source: socialResponses.source,
      kind: socialResponses.kind,
      sourceUrl: socialResponses.sourceUrl,
      authorName: socialResponses.authorName,
      authorUrl: socialResponses.authorUrl,
      contentHtml: socialResponses.contentHtml,
      receivedAt: socialResponses.receivedAt,
    })
    .from(socialResponses)
    .innerJoin(blogPosts, eq(blogPosts.id, socialResponses.postId))
    .where(eq(socialResponses.status, "pending"))
    .orderBy(asc(socialResponses.receivedAt), asc(socialResponses.id))
    .limit(QUEUE_PAGE_SIZE);
}

export { listBlocks };

/** Approves or rejects a response; false when there is no such response. */
export async function decideResponse(
  db: Database,
  id: number,
  status: "approved" | "rejected",
): Promise<boolean> {
  const rows = await db
    .update(socialResponses)
    .set({ status })
    .where(eq(socialResponses.id, id))
    .returning({ id: socialResponses.id });
  return rows.length > 0;
}

export async function removeFollower(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .delete(socialFollowers)
    .where(eq(socialFollowers.id, id))
    .returning({ id: socialFollowers.id });
  return rows.length > 0;
}

/** Does this block cover the URL (the actor itself, or its host or a parent domain)? */
export function blockCovers(block: Pick<SocialBlock, "kind" | "value">, url: string | null) {
  if (url === null) return false;
  if (block.kind === "actor") return url === block.value;
  const host = hostOf(url);
  return host !== null && (host === block.value || host.endsWith(`.${block.value}`));
}

/** Removes the followers and responses a block now covers. */
async function dropBlocked(db: Database, block: Pick<SocialBlock, "kind" | "value">) {
  if (block.kind === "actor") {
    await db.delete(socialFollowers).where(eq(socialFollowers.actorUrl, block.value));
  } else {
    await db
      .delete(socialFollowers)
      .where(
        or(
          eq(socialFollowers.domain, block.value),
          like(socialFollowers.domain, `%.${block.value.replace(/[\\%_]/g, "\\$&")}`),
        ),
      );
  }
  const responses = await db
    .select({
      id: socialResponses.id,
      sourceUrl: socialResponses.sourceUrl,
      authorUrl: socialResponses.authorUrl,
    })
    .from(socialResponses);
  const covered = responses
    .filter((r) => blockCovers(block, r.sourceUrl) || blockCovers(block, r.authorUrl))
    .map((r) => r.id);
  for (let i = 0; i < covered.length; i += 1000) {
    await db.delete(socialResponses).where(inArray(socialResponses.id, covered.slice(i, i + 1000)));
  }
}

/** Blocks a follower's actor, or its whole domain; false when there is no such follower. */
export async function blockFollower(
  db: Database,
  id: number,
  scope: "actor" | "domain",
): Promise<boolean> {
  const [follower] = await db.select().from(socialFollowers).where(eq(socialFollowers.id, id));
  if (!follower) return false;
  const block =
    scope === "actor"
      ? { kind: "actor" as const, value: follower.actorUrl }
      : { kind: "domain" as const, value: follower.domain };
  await (scope === "actor" ? blockActor(db, block.value) : blockDomain(db, block.value));
  await dropBlocked(db, block);
  return true;
}

/**
 * Blocks a response's author (their URL, else the response's source) or its domain; false when
 * there is no such response.
 */
export async function blockResponder(
  db: Database,
  id: number,
  scope: "actor" | "domain",
): Promise<boolean> {
  const [response] = await db.select().from(socialResponses).where(eq(socialResponses.id, id));
  if (!response) return false;
  const who = response.authorUrl ?? response.sourceUrl;
  if (scope === "actor") {
    await blockActor(db, who);
    await dropBlocked(db, { kind: "actor", value: who });
    // The response itself, when its author was named by another URL than its source.
    await db.delete(socialResponses).where(eq(socialResponses.id, id));
    return true;
  }
  const domain = domainOf(who);
  if (domain === null) return false;
  await blockDomain(db, domain);
  await dropBlocked(db, { kind: "domain", value: domain });
  return true;
}

/** Lifts a block; false when there is none with this id. */
export async function liftBlock(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .delete(socialBlocks)
    .where(eq(socialBlocks.id, id))
    .returning({ id: socialBlocks.id });
  return rows.length > 0;
}

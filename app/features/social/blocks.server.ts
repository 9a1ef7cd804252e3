/**
 * What the owner blocked: one actor (by its URL) or a whole domain (a host, which covers its
 * subdomains too). Anything a blocked sender sends (a follow, a reply, a like, a webmention) is
 * dropped without an answer that says so.
 */
import { and, desc, eq, inArray, or } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { socialBlocks, type SocialBlock } from "../../../database/schema";

/** The lowercased host of a URL, without a trailing dot; null when it is no URL. */
export function hostOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
    return host === "" ? null : host;
  } catch {
    return null;
  }
}

/** A host and every domain it belongs to: `a.b.example` -> a.b.example, b.example, example. */
function hostAndParents(host: string): string[] {
  const labels = host.split(".");
  return labels.map((_, i) => labels.slice(i).join("."));
}

/** A domain as the owner may type it (`Example.COM.`, `https://example.com/x`): its host. */
export function domainOf(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed === "") return null;
  return hostOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
}

export async function blockActor(db: Database, actorUrl: string): Promise<void> {
  if (hostOf(actorUrl) === null) throw new Error(`Not an actor URL: ${actorUrl}`);
  await db.insert(socialBlocks).values({ kind: "actor", value: actorUrl }).onConflictDoNothing();
}

export async function blockDomain(db: Database, domain: string): Promise<void> {
  const host = domainOf(domain);
  if (host === null) throw new Error(`Not a domain: ${domain}`);
  await db.insert(socialBlocks).values({ kind: "domain", value: host }).onConflictDoNothing();
}

export async function unblock(db: Database, id: number): Promise<void> {
  await db.delete(socialBlocks).where(eq(socialBlocks.id, id));
}

/** Every block, newest first. */
export function listBlocks(db: Database): Promise<SocialBlock[]> {
  return db
    .select()
    .from(socialBlocks)
    .orderBy(desc(socialBlocks.createdAt), desc(socialBlocks.id));
}

/** Is this URL (an actor, a page) blocked, by itself or by its host or a parent domain? */
export async function isBlocked(db: Database, url: string): Promise<boolean> {
  const host = hostOf(url);
  if (host === null) return true;
  const [found] = await db
    .select({ id: socialBlocks.id })
    .from(socialBlocks)
    .where(
      or(
        and(eq(socialBlocks.kind, "actor"), eq(socialBlocks.value, url)),
        and(eq(socialBlocks.kind, "domain"), inArray(socialBlocks.value, hostAndParents(host))),
      ),
    )
    .limit(1);
  return found !== undefined;
}

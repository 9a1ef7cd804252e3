/**
 * The actor's collections, served from the tables: its followers (count, and pages of them,
 * oldest first) and its outbox (the activities it sent, newest first), paged by id.
 */
import { Activity } from "@fedify/vocab";
import { asc, count, desc, gt, lt } from "drizzle-orm";

import { socialFollowers, socialOutbox } from "../../../database/schema";
import type { FederationConfig, SocialFederation } from "./federation.server";
import { COLLECTION_PAGE_SIZE } from "./limits";
import { AP_PATHS, OWNER_IDENTIFIER } from "./urls";

/** The outbox's first page (newest first: no id to start after). */
const FIRST = "newest";

/** A cursor is the last id of the page before (0: the first page). */
const cursorOf = (cursor: string) => (/^[0-9]{1,10}$/.test(cursor) ? Number(cursor) : null);

export function registerCollections(federation: SocialFederation, { db }: FederationConfig) {
  federation
    .setFollowersDispatcher(AP_PATHS.followers, async (_ctx, identifier, cursor) => {
      if (identifier !== OWNER_IDENTIFIER || cursor === null) return null;
      const after = cursorOf(cursor);
      if (after === null) return null;
      const rows = await db
        .select()
        .from(socialFollowers)
        .where(gt(socialFollowers.id, after))
        .orderBy(asc(socialFollowers.id))
        .limit(COLLECTION_PAGE_SIZE + 1);
      const page = rows.slice(0, COLLECTION_PAGE_SIZE);
      return {
        items: page.map((row) => ({
          id: new URL(row.actorUrl),
          inboxId: new URL(row.inboxUrl),
          endpoints: row.sharedInboxUrl ? { sharedInbox: new URL(row.sharedInboxUrl) } : null,
        })),
        nextCursor: rows.length > COLLECTION_PAGE_SIZE ? String(page.at(-1)!.id) : null,
      };
    })
    .setCounter(async () => {
      const [row] = await db.select({ n: count() }).from(socialFollowers);
      return row?.n ?? 0;
    })
    .setFirstCursor(() => "0");

  federation
    .setOutboxDispatcher(AP_PATHS.outbox, async (ctx, identifier, cursor) => {
      if (identifier !== OWNER_IDENTIFIER || cursor === null) return null;
      const before = cursor === FIRST ? null : cursorOf(cursor);
      if (cursor !== FIRST && before === null) return null;
      const rows = await db
        .select()
        .from(socialOutbox)
        .where(before === null ? undefined : lt(socialOutbox.id, before))
        .orderBy(desc(socialOutbox.id))
        .limit(COLLECTION_PAGE_SIZE + 1);
      const page = rows.slice(0, COLLECTION_PAGE_SIZE);
      const items = await Promise.all(
        page.map((row) =>
          Activity.fromJsonLd(row.activity, {
            documentLoader: ctx.documentLoader,
            contextLoader: ctx.contextLoader,
          }),
        ),
      );
      return {
        items,
        nextCursor: rows.length > COLLECTION_PAGE_SIZE ? String(page.at(-1)!.id) : null,
      };
    })
    .setCounter(async () => {
      const [row] = await db.select({ n: count() }).from(socialOutbox);
      return row?.n ?? 0;
    })
    .setFirstCursor(() => FIRST);
}

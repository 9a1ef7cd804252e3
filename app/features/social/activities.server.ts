/**
 * The owner's activities at their ids (`/ap/activities/{kind}/{name}`), as a server that got
 * one by reference fetches it: what the outbox stored, as ActivityPub JSON. Only what the
 * outbox holds is public (Create, Update and Delete of posts, all addressed to everyone); an
 * Accept or an unknown id is 404. A Create or Update of a post deleted since is 410 Gone with a
 * Tombstone, as Mastodon answers for what was deleted.
 */
import { and, eq, gt } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { socialOutbox } from "../../../database/schema";

export const ACTIVITY_PATH = /^\/ap\/activities\/[a-z]+\/[^/]+$/;

const ACTIVITY_JSON = "application/activity+json";

/** The answer for an activity's id (a URL under /ap/activities/). */
export async function activityAnswer(db: Database, id: string): Promise<Response> {
  const [row] = await db.select().from(socialOutbox).where(eq(socialOutbox.activityId, id));
  const headers = { "content-type": ACTIVITY_JSON };
  if (!row) {
    return new Response(JSON.stringify({ error: "Not found" }), { status: 404, headers });
  }
  if (row.type !== "Delete" && row.postId !== null) {
    const [deleted] = await db
      .select({ at: socialOutbox.publishedAt })
      .from(socialOutbox)
      .where(
        and(
          eq(socialOutbox.postId, row.postId),
          eq(socialOutbox.type, "Delete"),
          gt(socialOutbox.id, row.id),
        ),
      )
      .limit(1);
    if (deleted) {
      const tombstone = {
        "@context": "https://www.w3.org/ns/activitystreams",
        id,
        type: "Tombstone",
        formerType: row.type,
        deleted: deleted.at.toISOString(),
      };
      return new Response(JSON.stringify(tombstone), { status: 410, headers });
    }
  }
  return new Response(JSON.stringify(row.activity), { status: 200, headers });
}

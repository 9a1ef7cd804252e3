/** What a post's page shows of its responses: the approved replies and mentions, and counts. */
import { and, asc, count, eq, inArray } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { socialResponses } from "../../../database/schema";
import { hostOf } from "./blocks.server";
import { RESPONSES_SHOWN, type PostResponses } from "./responses";

export async function readPostResponses(db: Database, postId: number): Promise<PostResponses> {
  const approved = and(eq(socialResponses.postId, postId), eq(socialResponses.status, "approved"));
  const [rows, counts] = await Promise.all([
    db
      .select()
      .from(socialResponses)
      .where(and(approved, inArray(socialResponses.kind, ["reply", "mention"])))
      .orderBy(asc(socialResponses.receivedAt), asc(socialResponses.id))
      .limit(RESPONSES_SHOWN),
    db
      .select({ kind: socialResponses.kind, n: count() })
      .from(socialResponses)
      .where(and(approved, inArray(socialResponses.kind, ["like", "announce"])))
      .groupBy(socialResponses.kind),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      kind: r.kind === "reply" ? "reply" : "mention",
      sourceUrl: r.sourceUrl,
      authorName: r.authorName ?? hostOf(r.authorUrl ?? r.sourceUrl) ?? r.sourceUrl,
      authorUrl: r.authorUrl,
      authorPhoto: r.authorPhoto,
      contentHtml: r.contentHtml,
      date: (r.publishedAt ?? r.receivedAt).toISOString(),
    })),
    likes: counts.find((c) => c.kind === "like")?.n ?? 0,
    boosts: counts.find((c) => c.kind === "announce")?.n ?? 0,
  };
}

/**
 * The inboxes' rate limit (INBOX_RATE_LIMIT), counted in the database, so every instance of the
 * site shares one budget per sender: a window from the sender's first POST, on the database's
 * clock, kept as one row of social_kv per sender (Fedify's own keys are JSON arrays: no clash)
 * and counted in one statement. A new window's first count deletes the windows that ended.
 */
import { and, like, lte, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { socialKv } from "../../../database/schema";
import { INBOX_RATE_LIMIT } from "./limits";

const PREFIX = "inbox-rate ";

/**
 * Counts one inbox POST from `sender`; null while within the limit, else the milliseconds
 * until its window ends (for Retry-After).
 */
export async function inboxRateWait(db: Database, sender: string): Promise<number | null> {
  const windowEnd = sql`now() + make_interval(secs => ${INBOX_RATE_LIMIT.windowMs / 1000})`;
  const over = sql`${socialKv.expiresAt} <= now()`;
  const [row] = await db
    .insert(socialKv)
    .values({ key: `${PREFIX}${sender}`, value: sql`'1'::jsonb`, expiresAt: windowEnd })
    .onConflictDoUpdate({
      target: socialKv.key,
      set: {
        value: sql`case when ${over} then '1'::jsonb
          else to_jsonb((${socialKv.value} #>> '{}')::int + 1) end`,
        expiresAt: sql`case when ${over} then ${windowEnd} else ${socialKv.expiresAt} end`,
      },
    })
    .returning({
      count: sql<number>`(${socialKv.value} #>> '{}')::int`,
      waitMs: sql<number>`ceil(extract(epoch from ${socialKv.expiresAt} - now()) * 1000)::int`,
    });
  const count = Number(row!.count);
  if (count === 1) {
    await db
      .delete(socialKv)
      .where(and(like(socialKv.key, `${PREFIX}%`), lte(socialKv.expiresAt, sql`now()`)));
  }
  if (count <= INBOX_RATE_LIMIT.requests) return null;
  return Math.max(1, Number(row!.waitMs));
}

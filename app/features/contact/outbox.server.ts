import { and, count, desc, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";

import { lockUntilCommit, type Database } from "../../../database/db.server";
import { contactMessages, type ContactMessage } from "../../../database/schema";
import { CONTACT_RATE_LIMIT, trimContact, type ContactInput } from "./message";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "~/lib/format";

// The outbox's delivery schedule (server/delivery.ts runs it).
/** How often the worker looks for due messages when nothing wakes it. */
export const POLL_MS = 5 * SECOND_MS;
/** How many due messages a worker claims at a time. */
export const CLAIM_BATCH = 10;
/** Retries: firstDelayMs after the first failure, doubling, at most maxDelayMs apart; failed after maxAttempts. */
export const RETRY = { firstDelayMs: MINUTE_MS, maxDelayMs: 6 * HOUR_MS, maxAttempts: 10 } as const;
/** How long a worker's claim lasts; one left by a dead process lets another worker send. */
export const CLAIM_MS = 2 * MINUTE_MS;

export const retryDelayMs = (attempts: number) =>
  Math.min(RETRY.maxDelayMs, RETRY.firstDelayMs * 2 ** Math.max(0, attempts - 1));

/** pending → delivered, or failed after the last attempt; spam is never sent. */
export type MessageStatus = ContactMessage["status"];

/** A message as the submit handler hands it over: the visitor's fields, who sent it, and the honeypot's verdict. */
export type Submission = ContactInput & { clientAddress: string; spam: boolean };

/**
 * Stores a message (committed before the visitor hears of success). `limited` when the address
 * has already sent its share in the window, in which case nothing is stored.
 */
export async function submitContact(
  db: Database,
  input: Submission,
  limit: number = CONTACT_RATE_LIMIT.messages,
): Promise<"stored" | "limited"> {
  return db.transaction(async (tx) => {
    if (limit > 0) {
      // One submission per address at a time, so parallel ones cannot all see room left.
      await lockUntilCommit(tx, `contact:${input.clientAddress}`);
      const since = new Date(Date.now() - CONTACT_RATE_LIMIT.windowMs);
      const [recent] = await tx
        .select({ n: count() })
        .from(contactMessages)
        .where(
          and(
            eq(contactMessages.clientAddress, input.clientAddress),
            gt(contactMessages.createdAt, since),
          ),
        );
      if ((recent?.n ?? 0) >= limit) return "limited";
    }
    await tx.insert(contactMessages).values({
      ...trimContact(input),
      clientAddress: input.clientAddress,
      status: input.spam ? "spam" : "pending",
    });
    return "stored";
  });
}

/**
 * Claims up to `limit` due messages for this worker: `FOR UPDATE SKIP LOCKED` inside one short
 * statement, so several instances never claim the same message, and no lock is held while
 * sending (PGlite runs one query at a time).
 */
export async function claimDueMessages(
  db: Database,
  limit = CLAIM_BATCH,
): Promise<ContactMessage[]> {
  const now = new Date();
  const due = db
    .select({ id: contactMessages.id })
    .from(contactMessages)
    .where(
      and(
        eq(contactMessages.status, "pending"),
        lte(contactMessages.nextAttemptAt, now),
        or(isNull(contactMessages.lockedUntil), lte(contactMessages.lockedUntil, now)),
      ),
    )
    .orderBy(contactMessages.id)
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(contactMessages)
    .set({
      lockedUntil: new Date(now.getTime() + CLAIM_MS),
      attempts: sql`${contactMessages.attempts} + 1`,
    })
    .where(inArray(contactMessages.id, due))
    .returning();
}

export async function markDelivered(db: Database, id: number) {
  await db
    .update(contactMessages)
    .set({ status: "delivered", deliveredAt: new Date(), lockedUntil: null, lastError: null })
    .where(eq(contactMessages.id, id));
}

/** How much of a failed attempt's error is kept for the inbox. */
export const LAST_ERROR_MAX_CHARS = 1000;

/** Records a failed attempt: retried later with backoff, or failed for good after the last. */
export async function markAttemptFailed(db: Database, message: ContactMessage, error: string) {
  const giveUp = message.attempts >= RETRY.maxAttempts;
  await db
    .update(contactMessages)
    .set({
      status: giveUp ? "failed" : "pending",
      lastError: error.slice(0, LAST_ERROR_MAX_CHARS),
      lockedUntil: null,
      nextAttemptAt: new Date(Date.now() + retryDelayMs(message.attempts)),
    })
    // A late failure must never undo a delivery another worker made meanwhile.
    .where(and(eq(contactMessages.id, message.id), eq(contactMessages.status, "pending")));
}

/** How many messages the owner's inbox shows, newest first. */
export const INBOX_LIMIT = 200;

/** The owner's inbox, newest first. */
export function listMessages(db: Database, limit = INBOX_LIMIT): Promise<ContactMessage[]> {
  return db
    .select()
    .from(contactMessages)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(limit);
}

/** Puts a failed message back in the queue, due now, with a fresh set of attempts. */
export async function retryMessage(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .update(contactMessages)
    .set({ status: "pending", attempts: 0, nextAttemptAt: new Date(), lockedUntil: null })
    .where(and(eq(contactMessages.id, id), eq(contactMessages.status, "failed")))
    .returning({ id: contactMessages.id });
  return rows.length > 0;
}

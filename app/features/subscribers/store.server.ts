/**
 * The subscribers' rows: asking (double opt-in), confirming and unsubscribing. A confirmation
 * mail is a job of the durable queue (./confirm-mail.server.ts), added in the same transaction
 * as the row that asks for it: it exists if and only if the row does.
 */
import { and, count, eq, gt, lt, sql } from "drizzle-orm";

import { lockUntilCommit, type Database } from "../../../database/db.server";
import { subscribeRequests, subscribers, type Subscriber } from "../../../database/schema";
import { CONFIRM_RESEND_MS, SUBSCRIBE_RATE_LIMIT } from "./subscribe";
import { enqueue } from "~/lib/jobs.server";

/** The job that mails one subscriber's confirmation link. */
export const CONFIRM_MAIL_JOB = "subscribers.confirm-mail";

/** Adds the job mailing `id` its confirmation link (inside the caller's transaction). */
export const queueConfirmation = (db: Database, id: number) =>
  enqueue(db, { kind: CONFIRM_MAIL_JOB, payload: { id } });

/**
 * What became of a request: "asked" whatever the address's state (the caller answers every
 * one alike), or "limited" when this client asked too often.
 */
export type RequestOutcome = "asked" | "limited";

/**
 * A visitor asks to subscribe `email` (already normalized). Every request counts against its
 * client's limit, whatever the address, before the address is looked at. A new address is
 * stored pending with its confirmation mail queued; a pending one gets a new mail only once
 * CONFIRM_RESEND_MS has passed since the last; an unsubscribed one starts again as pending; a
 * confirmed one is left as it is. `spam` (the honeypot filled in) counts and changes nothing.
 */
export async function requestSubscription(
  db: Database,
  input: { email: string; clientAddress: string; spam: boolean },
  limit: number = SUBSCRIBE_RATE_LIMIT.requests,
): Promise<RequestOutcome> {
  return db.transaction(async (tx) => {
    if (limit > 0) {
      // One request per client at a time, so parallel ones cannot all see room left.
      await lockUntilCommit(tx, `subscribe:${input.clientAddress}`);
      const since = sql`now() - make_interval(secs => ${SUBSCRIBE_RATE_LIMIT.windowMs / 1000})`;
      await tx.delete(subscribeRequests).where(lt(subscribeRequests.requestedAt, since));
      const [recent] = await tx
        .select({ n: count() })
        .from(subscribeRequests)
        .where(
          and(
            eq(subscribeRequests.clientAddress, input.clientAddress),
            gt(subscribeRequests.requestedAt, since),
          ),
        );
      if ((recent?.n ?? 0) >= limit) return "limited";
      await tx.insert(subscribeRequests).values({ clientAddress: input.clientAddress });
    }
    if (input.spam) return "asked";
    // One request per address at a time: two asking at once for a new address add one row.
    await lockUntilCommit(tx, `subscriber:${input.email}`);
    const [existing] = await tx
      .select()
      .from(subscribers)
      .where(eq(subscribers.email, input.email));
    const asked = { clientAddress: input.clientAddress, confirmationSentAt: sql`now()` };
    if (!existing) {
      const [row] = await tx
        .insert(subscribers)
        .values({ email: input.email, ...asked })
        .returning({ id: subscribers.id });
      await queueConfirmation(tx, row!.id);
    } else if (existing.status === "unsubscribed" || resendDue(existing)) {
      await tx
        .update(subscribers)
        .set({ ...asked, status: "pending", unsubscribedAt: null })
        .where(eq(subscribers.id, existing.id));
      await queueConfirmation(tx, existing.id);
    }
    return "asked";
  });
}

const resendDue = (s: Subscriber) =>
  s.status === "pending" &&
  (s.confirmationSentAt === null ||
    s.confirmationSentAt.getTime() < Date.now() - CONFIRM_RESEND_MS);

export const findSubscriber = async (db: Database, id: number) =>
  (await db.select().from(subscribers).where(eq(subscribers.id, id)))[0] ?? null;

/** A pending subscriber confirms (its link checked by the caller); false if it was not pending. */
export async function confirmSubscriber(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .update(subscribers)
    .set({ status: "confirmed", confirmedAt: sql`now()` })
    .where(and(eq(subscribers.id, id), eq(subscribers.status, "pending")))
    .returning({ id: subscribers.id });
  return rows.length > 0;
}

/** A subscriber leaves (its link checked by the caller): nothing more is sent to it. */
export async function unsubscribe(db: Database, id: number): Promise<void> {
  await db
    .update(subscribers)
    .set({ status: "unsubscribed", unsubscribedAt: sql`coalesce(unsubscribed_at, now())` })
    .where(eq(subscribers.id, id));
}

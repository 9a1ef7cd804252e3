/**
 * The newsletter's queue (docs/decisions/037-newsletter.md): when a post is first published
 * with `Send to subscribers` on, migration 0014's trigger queues a `newsletter.expand` job; the
 * job writes one `newsletter_sends` row per confirmed subscriber, and the send worker
 * (server/newsletter.ts) claims those rows in batches, within one rate budget shared by every
 * instance, and marks each sent right after the mail server accepted it. Every time is the
 * database's `now()`, as in the job queue (app/lib/jobs.server.ts).
 */
import { sql } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import type { NewsletterSendStatus } from "../../../database/schema";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "~/lib/format";
import type { Job, JobHandler } from "~/lib/jobs.server";

/** The send worker's pace and patience. */
export const NEWSLETTER_SENDING = {
  /** The most rows a worker claims at once (fewer when the budget allows fewer). */
  claimBatch: 20,
  /**
   * How long a claim lasts: the rows of a worker that died are sent by another after it. A
   * send ends well within it (SMTP_TIMEOUTS_MS in app/features/contact/mail.server.ts).
   */
  leaseMs: 2 * MINUTE_MS,
  /** How often a worker looks for due rows when nothing wakes it. */
  pollMs: 5 * SECOND_MS,
  /** The budget holds at most this many seconds of the rate: the largest burst. */
  burstSeconds: 1,
  /** Retries: firstDelayMs after the first failure, doubling, at most maxDelayMs apart. */
  retry: { firstDelayMs: MINUTE_MS, maxDelayMs: HOUR_MS, maxAttempts: 8 },
} as const;

/** How much of a failed attempt's error is kept for the owner. */
const LAST_ERROR_MAX_CHARS = 1000;

/** The job kind migration 0014's trigger queues, one per post (its key names the post). */
export const NEWSLETTER_EXPAND_KIND = "newsletter.expand";

export const newsletterRetryDelayMs = (attempts: number) =>
  Math.min(
    NEWSLETTER_SENDING.retry.maxDelayMs,
    NEWSLETTER_SENDING.retry.firstDelayMs * 2 ** Math.max(0, attempts - 1),
  );

/** `now() + ms` by the database's clock. */
const fromNow = (ms: number) => sql`now() + make_interval(secs => ${ms / SECOND_MS})`;

const queuedListeners = new Set<() => void>();

/** Called (in this process) whenever a post's recipients were written: the send worker wakes. */
export function onNewsletterQueued(listener: () => void): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

/**
 * Writes one row per confirmed subscriber for a post that is still published: safe to repeat
 * (the pair is unique), so a job run twice adds nobody twice. Returns how many rows it added.
 */
export async function expandNewsletter(db: Database, postId: number): Promise<number> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into newsletter_sends (post_id, subscriber_id)
      select p.id, s.id from blog_posts p cross join subscribers s
      where p.id = ${postId} and p.status = 'published' and s.status = 'confirmed'
      order by s.id
      on conflict (post_id, subscriber_id) do nothing
      returning id`),
  );
  for (const listener of queuedListeners) listener();
  return rows.length;
}

/** The newsletter's jobs, for the site's job worker (server/jobs.ts). */
export const NEWSLETTER_JOBS: readonly JobHandler[] = [
  {
    kind: NEWSLETTER_EXPAND_KIND,
    run: async (db: Database, job: Job) => {
      const postId = Number(job.payload.postId);
      if (!Number.isSafeInteger(postId) || postId <= 0) return { postId: null, recipients: 0 };
      return { postId, recipients: await expandNewsletter(db, postId) };
    },
  },
];

/** A claimed row, with its subscriber as they are now. */
export type ClaimedSend = {
  id: number;
  postId: number;
  subscriberId: number;
  attempts: number;
  email: string;
  subscriberStatus: string;
};

/** Whether any row is due now (a cheap look before taking from the budget). */
export async function hasDueSends(db: Database): Promise<boolean> {
  const rows = rowsOf<{ one: number }>(
    await db.execute(sql`
      select 1 as one from newsletter_sends
      where status = 'pending' and next_attempt_at <= now()
        and (locked_until is null or locked_until <= now())
      limit 1`),
  );
  return rows.length > 0;
}

/**
 * Claims up to `limit` due rows for this worker, counting the attempt: `FOR UPDATE SKIP LOCKED`
 * in one short statement, so concurrent workers never claim the same row and no lock is held
 * while mail is sent. The claim is a lease: rows whose worker died are due again after it.
 */
export async function claimSends(db: Database, limit: number): Promise<ClaimedSend[]> {
  if (limit <= 0) return [];
  const rows = rowsOf<{
    id: number;
    post_id: number;
    subscriber_id: number;
    attempts: number;
    email: string;
    subscriber_status: string;
  }>(
    await db.execute(sql`
      with due as (
        select id from newsletter_sends
        where status = 'pending' and next_attempt_at <= now()
          and (locked_until is null or locked_until <= now())
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked
      ), claimed as (
        update newsletter_sends n
        set locked_until = ${fromNow(NEWSLETTER_SENDING.leaseMs)}, attempts = n.attempts + 1
        from due where n.id = due.id
        returning n.id, n.post_id, n.subscriber_id, n.attempts
      )
      select c.*, s.email, s.status as subscriber_status
      from claimed c join subscribers s on s.id = c.subscriber_id
      order by c.id`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    postId: Number(r.post_id),
    subscriberId: Number(r.subscriber_id),
    attempts: Number(r.attempts),
    email: r.email,
    subscriberStatus: r.subscriber_status,
  }));
}

/**
 * Gives back claimed rows this worker will not send (it is stopping): due again at once for any
 * worker, the attempt uncounted, instead of waiting for the lease to lapse.
 */
export async function releaseSends(db: Database, sends: readonly ClaimedSend[]): Promise<void> {
  if (sends.length === 0) return;
  const ids = sql.join(
    sends.map((s) => sql`${s.id}`),
    sql`, `,
  );
  await db.execute(sql`
    update newsletter_sends set locked_until = null, attempts = greatest(0, attempts - 1)
    where id in (${ids}) and status = 'pending'`);
}

/** The mail server accepted it: sent, for good. */
export async function markSent(db: Database, id: number): Promise<void> {
  await db.execute(sql`
    update newsletter_sends set status = 'sent', sent_at = now(), locked_until = null,
      last_error = null
    where id = ${id} and status = 'pending'`);
}

/** Not sent and never will be: the subscriber left, or the post is no longer public. */
export async function markSkipped(db: Database, id: number, reason: string): Promise<void> {
  await db.execute(sql`
    update newsletter_sends set status = 'skipped', locked_until = null, last_error = ${reason}
    where id = ${id} and status = 'pending'`);
}

/** A failed attempt: tried again after a backoff, or `failed` after the last attempt. */
export async function markSendFailed(
  db: Database,
  send: Pick<ClaimedSend, "id" | "attempts">,
  error: string,
): Promise<"retry" | "failed"> {
  const giveUp = send.attempts >= NEWSLETTER_SENDING.retry.maxAttempts;
  await db.execute(sql`
    update newsletter_sends set
      status = ${giveUp ? "failed" : "pending"},
      last_error = ${error.slice(0, LAST_ERROR_MAX_CHARS)},
      locked_until = null,
      next_attempt_at = ${fromNow(newsletterRetryDelayMs(send.attempts))}
    where id = ${send.id} and status = 'pending'`);
  return giveUp ? "failed" : "retry";
}

/** What the owner sees of a post's newsletter. */
export type NewsletterCounts = Record<NewsletterSendStatus, number>;

/** Per post: how many of its mails are sent, pending, failed and skipped (absent: none). */
export async function newsletterCounts(
  db: Database,
  postIds: readonly number[],
): Promise<Map<number, NewsletterCounts>> {
  const counts = new Map<number, NewsletterCounts>();
  if (postIds.length === 0) return counts;
  const ids = sql.join(
    postIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = rowsOf<{ post_id: number; status: NewsletterSendStatus; n: string | number }>(
    await db.execute(sql`
      select post_id, status, count(*) as n from newsletter_sends
      where post_id in (${ids}) group by post_id, status`),
  );
  for (const row of rows) {
    const postId = Number(row.post_id);
    const entry = counts.get(postId) ?? { pending: 0, sent: 0, failed: 0, skipped: 0 };
    entry[row.status] = Number(row.n);
    counts.set(postId, entry);
  }
  return counts;
}

/** The budget's most tokens for a rate: `burstSeconds` of it, and at least one message. */
export const budgetCapacity = (perMinute: number) =>
  Math.max(1, (perMinute / 60) * NEWSLETTER_SENDING.burstSeconds);

/**
 * Takes up to `want` messages from the one budget every instance shares: a token bucket that
 * fills at `perMinute` messages a minute, up to budgetCapacity, kept in one row and changed in
 * one statement (the row's lock orders concurrent takers). `waitMs`: when nothing was granted,
 * how long until the next whole token.
 */
export async function takeBudget(
  db: Database,
  want: number,
  perMinute: number,
): Promise<{ granted: number; waitMs: number }> {
  const perSecond = perMinute / 60;
  const capacity = budgetCapacity(perMinute);
  const filled = sql`least(${capacity}::float8, tokens + greatest(0, extract(epoch from (now() - refilled_at)))::float8 * ${perSecond}::float8)`;
  const granted = sql`least(floor(${filled}), ${want}::float8)`;
  const [row] = rowsOf<{ tokens: number; granted: number }>(
    await db.execute(sql`
      update newsletter_budget set
        tokens = ${filled} - ${granted},
        granted = ${granted}::int,
        refilled_at = greatest(refilled_at, now())
      where id = 1
      returning tokens, granted`),
  );
  if (!row) throw new Error("The newsletter's budget row is missing (migration 0014).");
  const tokens = Number(row.tokens);
  const got = Number(row.granted);
  const waitMs = got > 0 ? 0 : Math.max(1, Math.ceil(((1 - tokens) / perSecond) * SECOND_MS));
  return { granted: got, waitMs };
}

/** Gives back what was taken and not used (fewer rows were due than the budget granted). */
export async function returnBudget(db: Database, count: number, perMinute: number) {
  if (count <= 0) return;
  await db.execute(sql`
    update newsletter_budget set tokens = least(${budgetCapacity(perMinute)}::float8, tokens + ${count}::float8)
    where id = 1`);
}

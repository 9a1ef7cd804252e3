/**
 * The durable job queue, the one place for background work (docs/decisions/025-job-queue.md):
 * a job is a row of `jobs`, committed before anyone waits on it, run by a worker on some
 * instance (server/jobs.ts) at least once, retried with backoff, and deleted once done. Every
 * time here is the database's (`now()`), so instances with drifting clocks agree on what is due,
 * and a test moves the clock by moving rows' times. Generic: features hand the worker their
 * kinds of job as `JobHandler`s.
 */
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";

import type { Database } from "../../database/db.server";
import { jobs } from "../../database/schema";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "./format";
import { errorMessage } from "./log.server";

/** How often a worker looks for due jobs when nothing wakes it. */
export const JOB_POLL_MS = 15 * SECOND_MS;
/**
 * How long a claim lasts: a job whose worker died is claimed again after it. A job must finish
 * within it, or another worker may start it too; longer work is split into several jobs.
 */
export const JOB_LEASE_MS = 5 * MINUTE_MS;
/** Retries: firstDelayMs after the first failure, doubling, at most maxDelayMs apart; failed after maxAttempts. */
export const JOB_RETRY = { firstDelayMs: MINUTE_MS, maxDelayMs: HOUR_MS, maxAttempts: 8 } as const;
/** How much of a failed attempt's error is kept in `last_error`. */
export const JOB_ERROR_MAX_CHARS = 1000;

/** The wait before the next attempt, after `attempts` attempts failed. */
export const jobRetryDelayMs = (attempts: number) =>
  Math.min(JOB_RETRY.maxDelayMs, JOB_RETRY.firstDelayMs * 2 ** Math.max(0, attempts - 1));

export type Job = typeof jobs.$inferSelect;

/** What a feature gives the worker for one kind of job. */
export type JobHandler = {
  /** Names the work, feature first (`posts.purge-trash`); stored in each job's row. */
  kind: string;
  /**
   * Does the work; throwing fails the attempt. A job may run twice (its worker died after the
   * work, before the row was deleted), so the work must be safe to repeat. What it returns is
   * logged with the job's end.
   */
  run(db: Database, job: Job): Promise<Record<string, unknown> | void>;
  /**
   * A recurring job: one exists from the first start of any instance (its key is its kind),
   * and it runs again this long after each run.
   */
  everyMs?: number;
  /**
   * Someone waits on it, and it is quick (a follower's delivery, a CDN purge): it runs in the
   * worker's prompt lane, which no slow job (a share card drawn, an import) holds up.
   */
  prompt?: true;
};

/** `now() + ms` by the database's clock. */
const fromNow = (ms: number) => sql`now() + make_interval(secs => ${ms / SECOND_MS})`;

/**
 * Adds a job, due at `runAt` (now by default), or `delayMs` from now by the database's clock. A
 * job with a `key` exists once: while one with that key is pending or failed, nothing new is
 * added and the answer is null. Inside a transaction (`db` may be one), the job exists if and
 * only if the transaction commits.
 */
export async function enqueue(
  db: Database,
  job: {
    kind: string;
    payload?: Record<string, unknown>;
    runAt?: Date;
    delayMs?: number;
    key?: string;
  },
): Promise<number | null> {
  const runAt = job.delayMs !== undefined && job.delayMs > 0 ? fromNow(job.delayMs) : job.runAt;
  const [row] = await db
    .insert(jobs)
    .values({ kind: job.kind, key: job.key, payload: job.payload ?? {}, runAt })
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id });
  return row?.id ?? null;
}

/**
 * Makes sure each recurring handler's job exists (keyed by its kind), due now when it is new:
 * any number of starts, on any number of instances, leave one.
 */
export async function ensureRecurringJobs(db: Database, handlers: readonly JobHandler[]) {
  const recurring = handlers.filter((h) => h.everyMs !== undefined);
  if (recurring.length === 0) return;
  await db
    .insert(jobs)
    .values(recurring.map((h) => ({ kind: h.kind, key: h.kind })))
    .onConflictDoNothing({ target: jobs.key });
}

/**
 * Claims the next due job of one of `kinds` for this worker, counting the attempt: `FOR UPDATE
 * SKIP LOCKED` inside one short statement, so concurrent workers never claim the same job and
 * no lock is held while it runs (PGlite runs one query at a time). The claim is a lease: a job
 * whose worker died is due again once `locked_until` passes. Kinds this worker cannot run are
 * left to instances that can (a rolling deploy).
 */
export async function claimJob(db: Database, kinds: readonly string[]): Promise<Job | null> {
  if (kinds.length === 0) return null;
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, "pending"),
        lte(jobs.runAt, sql`now()`),
        or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, sql`now()`)),
        inArray(jobs.kind, [...kinds]),
      ),
    )
    .orderBy(jobs.runAt, jobs.id)
    .limit(1)
    .for("update", { skipLocked: true });
  const [job] = await db
    .update(jobs)
    .set({ lockedUntil: fromNow(JOB_LEASE_MS), attempts: sql`${jobs.attempts} + 1` })
    .where(inArray(jobs.id, due))
    .returning();
  return job ?? null;
}

/**
 * The row as this claim left it: `attempts` grows with every claim, so a worker whose lease
 * ran out (and whose job another worker claimed since) changes nothing.
 */
const stillClaimed = (job: Job) => and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts));

/** A one-off job is done: its row goes. False when the claim was lost meanwhile. */
export async function completeJob(db: Database, job: Job): Promise<boolean> {
  const rows = await db.delete(jobs).where(stillClaimed(job)).returning({ id: jobs.id });
  return rows.length > 0;
}

/** A recurring job ran: it is due again `everyMs` from now, with a fresh set of attempts. */
export async function rescheduleJob(db: Database, job: Job, everyMs: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ runAt: fromNow(everyMs), attempts: 0, lockedUntil: null, lastError: null })
    .where(stillClaimed(job))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * What became of a failed attempt: tried again later (`retry`), given up (`failed`, kept with
 * its error for a person to look at), for a recurring job its next run (`next-run`: a failed
 * recurring job would never run again), or nothing (`lost`: another worker holds it now).
 */
export type FailOutcome = "retry" | "failed" | "next-run" | "lost";

/** Records a failed attempt: retried after jobRetryDelayMs, until the last of JOB_RETRY.maxAttempts. */
export async function failJob(
  db: Database,
  job: Job,
  error: string,
  everyMs?: number,
): Promise<FailOutcome> {
  const lastError = error.slice(0, JOB_ERROR_MAX_CHARS);
  const giveUp = job.attempts >= JOB_RETRY.maxAttempts;
  const outcome: FailOutcome = !giveUp ? "retry" : everyMs === undefined ? "failed" : "next-run";
  const next =
    outcome === "retry"
      ? { runAt: fromNow(jobRetryDelayMs(job.attempts)) }
      : outcome === "failed"
        ? { status: "failed" as const }
        : { runAt: fromNow(everyMs!), attempts: 0 };
  const rows = await db
    .update(jobs)
    .set({ ...next, lockedUntil: null, lastError })
    .where(stillClaimed(job))
    .returning({ id: jobs.id });
  return rows.length > 0 ? outcome : "lost";
}

/** How a claimed job ended, for the log. */
export type JobOutcome =
  | { ok: true; summary: Record<string, unknown> | void; kept: boolean }
  | { ok: false; error: string; outcome: FailOutcome };

/**
 * Runs a claimed job with its handler and records the end: a one-off job is deleted, a
 * recurring one rescheduled, a failed attempt retried or given up. `kept`: the row still showed
 * this claim when it was recorded (false: the lease ran out and another worker took the job).
 */
export async function runJob(db: Database, handler: JobHandler, job: Job): Promise<JobOutcome> {
  let summary: Record<string, unknown> | void;
  try {
    summary = await handler.run(db, job);
  } catch (error) {
    // Stored and logged as the log keeps errors: no query's parameters, no credentials.
    const text = errorMessage(error);
    return { ok: false, error: text, outcome: await failJob(db, job, text, handler.everyMs) };
  }
  const kept =
    handler.everyMs === undefined
      ? await completeJob(db, job)
      : await rescheduleJob(db, job, handler.everyMs);
  return { ok: true, summary, kept };
}

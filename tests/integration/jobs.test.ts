import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { HOUR_MS, SECOND_MS } from "../../app/lib/format";
import {
  claimJob,
  completeJob,
  enqueue,
  ensureRecurringJobs,
  failJob,
  JOB_LEASE_MS,
  JOB_RETRY,
  jobRetryDelayMs,
  runJob,
  type Job,
  type JobHandler,
} from "../../app/lib/jobs.server";
import { jobs } from "../../database/schema";
import { startJobWorker, type JobWorker } from "../../server/jobs";
import { drivers, queryRows, skipReason, type TestDatabase } from "./databases";

const KIND = "test.work";

/** A handler that records the ids it ran, and fails while `failing` says so. */
function recorder(over: Partial<JobHandler> = {}) {
  const ran: number[] = [];
  const handler: JobHandler & { ran: number[]; failing: boolean } = {
    kind: KIND,
    ran,
    failing: false,
    run: async (_db, job) => {
      ran.push(job.id);
      if (handler.failing) throw new Error("boom");
    },
    ...over,
  };
  return handler;
}

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the job queue on ${driver.name}`, () => {
    let database: TestDatabase;
    const workers: JobWorker[] = [];
    beforeEach(async () => {
      database = await driver.fresh();
      // The workers log every job's end.
      vi.spyOn(console, "log").mockImplementation(() => {});
      vi.spyOn(console, "error").mockImplementation(() => {});
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      vi.restoreAllMocks();
      await database.dispose();
    });

    const start = (handlers: JobHandler[]) => {
      const worker = startJobWorker(database.db, handlers);
      workers.push(worker);
      return worker;
    };
    /** Moves the database's clock `ms` ahead, as the queue sees it: every job's times go back. */
    const moveClock = (ms: number) =>
      database.db.execute(sql`update jobs set
        run_at = run_at - make_interval(secs => ${ms / SECOND_MS}),
        locked_until = locked_until - make_interval(secs => ${ms / SECOND_MS})`);
    const row = async (id: number) =>
      (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0];
    /** How far ahead of the database's now a job is due, in ms. */
    const dueIn = async (id: number) => {
      const [r] = await queryRows<{ ms: string | number }>(
        database.db,
        sql`select extract(epoch from run_at - now()) * 1000 as ms from jobs where id = ${id}`,
      );
      return Number(r!.ms);
    };
    const enqueueMany = async (n: number, kind = KIND) => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) ids.push((await enqueue(database.db, { kind, payload: { i } }))!);
      return ids;
    };

    it("claims each due job once when workers claim at once, and only kinds they run", async () => {
      const ids = await enqueueMany(30);
      const [other] = await enqueueMany(1, "test.other");
      const later = await enqueue(database.db, {
        kind: KIND,
        runAt: new Date(Date.now() + HOUR_MS),
      });
      const claimed: Job[] = [];
      const claimer = async () => {
        for (
          let job = await claimJob(database.db, [KIND]);
          job;
          job = await claimJob(database.db, [KIND])
        ) {
          claimed.push(job);
        }
      };
      await Promise.all([claimer(), claimer(), claimer(), claimer()]);
      expect(claimed.map((j) => j.id).sort((a, b) => a - b)).toEqual(ids);
      expect(claimed.every((j) => j.attempts === 1 && j.lockedUntil !== null)).toBe(true);
      // Held by their claims, not due, or of a kind nobody asked for.
      expect(await claimJob(database.db, [KIND])).toBeNull();
      expect((await row(other!))?.attempts).toBe(0);
      expect((await row(later!))?.attempts).toBe(0);
    });

    it("runs each job once with two workers at once, and deletes it when done", async () => {
      const ids = await enqueueMany(20);
      const handler = recorder();
      const a = start([handler]);
      const b = start([handler]);
      await Promise.all([a.settled(), b.settled()]);
      expect([...handler.ran].sort((x, y) => x - y)).toEqual(ids);
      expect(await database.db.select().from(jobs)).toEqual([]);
    });

    it("lets the event loop turn between jobs, so a backlog holds up no request", async () => {
      // Each job reads the database and does no other I/O: on the embedded database its queries
      // settle as microtasks, and a worker that never yielded would run all of them before a
      // request (or this timer) had a turn.
      const ids = await enqueueMany(100);
      const handler = recorder({
        run: async (db, job) => {
          await db.execute(sql`select count(*) from jobs`);
          handler.ran.push(job.id);
        },
      });
      const worker = start([handler]);
      const ranWhenTimerFired = await new Promise<number>((resolve) =>
        setTimeout(() => resolve(handler.ran.length), 0),
      );
      await worker.settled();
      expect(handler.ran.sort((a, b) => a - b)).toEqual(ids);
      expect(ranWhenTimerFired).toBeLessThan(5);
    });

    it("runs a prompt job while a slow one is in flight, and looks at once for a prompt job a slow one queued", async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const seen: string[] = [];
      const slow: JobHandler = {
        kind: "test.slow",
        run: async (db) => {
          seen.push("slow started");
          await held;
          await enqueue(db, { kind: "test.prompt" });
          seen.push("slow ended");
        },
      };
      const prompt: JobHandler = {
        kind: "test.prompt",
        prompt: true,
        run: async () => void seen.push("prompt"),
      };
      // Queued first, so in one line the slow job would run first and the prompt one wait.
      await enqueue(database.db, { kind: "test.slow" });
      await enqueue(database.db, { kind: "test.prompt" });
      const worker = start([slow, prompt]);
      await vi.waitFor(
        () => expect(seen).toEqual(expect.arrayContaining(["slow started", "prompt"])),
        {
          timeout: 5_000,
        },
      );
      expect(seen).not.toContain("slow ended");

      release();
      // The prompt lane was idle: it looks when the slow job ends, not at its next poll.
      await worker.settled();
      expect(seen.slice(-2)).toEqual(["slow ended", "prompt"]);
      expect(await database.db.select().from(jobs)).toEqual([]);
    });

    it("adds a job with a key once", async () => {
      const first = await enqueue(database.db, { kind: KIND, key: "once" });
      expect(first).toEqual(expect.any(Number));
      expect(await enqueue(database.db, { kind: KIND, key: "once" })).toBeNull();
      expect(await database.db.select().from(jobs)).toHaveLength(1);
    });

    it("retries a failing job with doubling delays, then keeps it failed with its error", async () => {
      const id = (await enqueue(database.db, { kind: KIND }))!;
      const handler = recorder();
      handler.failing = true;
      for (let attempt = 1; attempt <= JOB_RETRY.maxAttempts; attempt++) {
        const job = (await claimJob(database.db, [KIND]))!;
        expect(job).toMatchObject({ id, attempts: attempt });
        const outcome = await runJob(database.db, handler, job);
        if (attempt < JOB_RETRY.maxAttempts) {
          expect(outcome).toEqual({ ok: false, error: "boom", outcome: "retry" });
          const wait = jobRetryDelayMs(attempt);
          expect(await dueIn(id)).toBeGreaterThan(wait - 5 * SECOND_MS);
          expect(await dueIn(id)).toBeLessThanOrEqual(wait);
          // Not before its time.
          await moveClock(wait - 10 * SECOND_MS);
          expect(await claimJob(database.db, [KIND])).toBeNull();
          await moveClock(10 * SECOND_MS);
        } else {
          expect(outcome).toEqual({ ok: false, error: "boom", outcome: "failed" });
        }
      }
      expect(await row(id)).toMatchObject({
        status: "failed",
        attempts: JOB_RETRY.maxAttempts,
        lastError: "boom",
        lockedUntil: null,
      });
      await moveClock(100 * HOUR_MS);
      expect(await claimJob(database.db, [KIND])).toBeNull();
      expect(handler.ran).toHaveLength(JOB_RETRY.maxAttempts);
    });

    it("runs a job whose worker died once its lease has passed, and ignores the dead claim", async () => {
      const id = (await enqueue(database.db, { kind: KIND }))!;
      const dead = (await claimJob(database.db, [KIND]))!;
      await moveClock(JOB_LEASE_MS - 10 * SECOND_MS);
      expect(await claimJob(database.db, [KIND])).toBeNull();
      await moveClock(10 * SECOND_MS);
      const lateWords: unknown[] = [];
      const ran: Job[] = [];
      await start([
        {
          kind: KIND,
          run: async (db, job) => {
            ran.push(job);
            // The dead worker wakes while this one holds the job: its word changes nothing.
            lateWords.push(await completeJob(db, dead), await failJob(db, dead, "late"));
          },
        },
      ]).settled();
      expect(ran).toMatchObject([{ id, attempts: 2 }]);
      expect(lateWords).toEqual([false, "lost"]);
      expect(await row(id)).toBeUndefined();
    });

    it("keeps one recurring job however often it is started, and runs it again after its period", async () => {
      const everyMs = 6 * HOUR_MS;
      const handler = recorder({ everyMs });
      await Promise.all([
        ensureRecurringJobs(database.db, [handler]),
        ensureRecurringJobs(database.db, [handler]),
      ]);
      const a = start([handler]);
      const b = start([handler]);
      await Promise.all([a.settled(), b.settled()]);
      await start([handler]).settled();
      const rows = await database.db.select().from(jobs);
      expect(rows).toMatchObject([{ kind: KIND, key: KIND, attempts: 0, lockedUntil: null }]);
      expect(handler.ran).toHaveLength(1);
      expect(await dueIn(rows[0]!.id)).toBeGreaterThan(everyMs - 5 * SECOND_MS);

      await moveClock(everyMs);
      a.wake();
      await a.settled();
      expect(handler.ran).toEqual([rows[0]!.id, rows[0]!.id]);
      expect(await database.db.select().from(jobs)).toHaveLength(1);
    });

    it("sends a recurring job that keeps failing to its next run, never to failed", async () => {
      const everyMs = 6 * HOUR_MS;
      const handler = recorder({ everyMs });
      handler.failing = true;
      await ensureRecurringJobs(database.db, [handler]);
      for (let attempt = 1; attempt <= JOB_RETRY.maxAttempts; attempt++) {
        const job = (await claimJob(database.db, [KIND]))!;
        const outcome = await runJob(database.db, handler, job);
        const last = attempt === JOB_RETRY.maxAttempts;
        expect(outcome).toMatchObject({ outcome: last ? "next-run" : "retry" });
        if (!last) await moveClock(jobRetryDelayMs(attempt));
      }
      const [job] = await database.db.select().from(jobs);
      expect(job).toMatchObject({ status: "pending", attempts: 0, lastError: "boom" });
      expect(await dueIn(job!.id)).toBeGreaterThan(everyMs - 5 * SECOND_MS);
    });
  });
}

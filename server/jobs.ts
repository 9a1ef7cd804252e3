import { setImmediate as nextTurn } from "node:timers/promises";

import type { Database } from "../database/db.server";
import { CARD_JOBS } from "../app/features/cards/index.server";
import { IMPORT_JOBS } from "../app/features/import/index.server";
import { MEDIA_JOBS } from "../app/features/media/index.server";
import { POST_JOBS } from "../app/features/posts/index.server";
import { SOCIAL_JOBS, WEBMENTION_JOBS } from "../app/features/social/index.server";
import { NEWSLETTER_JOBS, SUBSCRIBER_JOBS } from "../app/features/subscribers/index.server";
import {
  claimJob,
  ensureRecurringJobs,
  JOB_POLL_MS,
  runJob,
  type JobHandler,
} from "../app/lib/jobs.server";
import { errorMessage, logEvent } from "../app/lib/log.server";
import { CDN_PURGE_JOB } from "./page-cache/purge";

/** Every kind of job the site runs, from the features that define them. */
export const SITE_JOBS: readonly JobHandler[] = [
  ...POST_JOBS,
  ...MEDIA_JOBS,
  ...CARD_JOBS,
  ...SUBSCRIBER_JOBS,
  ...NEWSLETTER_JOBS,
  ...SOCIAL_JOBS,
  ...WEBMENTION_JOBS,
  ...IMPORT_JOBS,
  CDN_PURGE_JOB,
];

export type JobWorker = {
  /** Look now (a job was just added). */
  wake(): void;
  /** The current looks, if any: resolves once no job is due (tests). */
  settled(): Promise<void>;
  /** Whether a lane is looking for a job or running one. */
  busy(): boolean;
  /** Stop looking; resolves once the jobs in flight, if any, have ended. */
  stop(): Promise<void>;
};

/** One lane runs its kinds as the worker runs all: a worker is two lanes. */
type Lane = JobWorker;

/**
 * The job queue's worker (app/lib/jobs.server.ts), one per server process: it makes sure the
 * recurring jobs exist, then runs due jobs one claim at a time in each of two lanes, so a
 * stopping worker holds no job it will not run. The prompt lane runs the kinds someone waits on
 * (`prompt`: a follower's delivery within seconds of a publish), the other lane the rest, so a
 * share card drawn or an import never holds up a delivery queued behind it. Any number of
 * processes may run it against one PostgreSQL database: claims skip what another worker holds.
 */
export function startJobWorker(
  db: Database,
  handlers: readonly JobHandler[] = SITE_JOBS,
): JobWorker {
  const byKind = new Map(handlers.map((h) => [h.kind, h]));
  if (byKind.size !== handlers.length) throw new Error("Two job handlers share a kind.");
  let ensured: Promise<void> | null = null;
  const ensure = () =>
    (ensured ??= ensureRecurringJobs(db, handlers).catch((error: unknown) => {
      ensured = null;
      throw error;
    }));
  const lanes: Lane[] = [];
  // A job may add a job for the other lane (a post's change, its deliveries): that lane looks
  // when a job ends, instead of at its next poll.
  const jobEnded = (from: Lane) => lanes.forEach((lane) => lane !== from && lane.wake());
  for (const prompt of [true, false]) {
    const kinds = handlers.filter((h) => (h.prompt ?? false) === prompt).map((h) => h.kind);
    if (kinds.length > 0) lanes.push(startLane(db, byKind, kinds, ensure, jobEnded));
  }
  return {
    wake: () => lanes.forEach((lane) => lane.wake()),
    busy: () => lanes.some((lane) => lane.busy()),
    settled: async () => {
      while (lanes.some((lane) => lane.busy())) {
        await Promise.all(lanes.map((lane) => lane.settled()));
      }
    },
    stop: async () => {
      await Promise.all(lanes.map((lane) => lane.stop()));
    },
  };
}

/** One lane: a loop that claims and runs due jobs of `kinds`, one at a time. */
function startLane(
  db: Database,
  byKind: ReadonlyMap<string, JobHandler>,
  kinds: readonly string[],
  ensure: () => Promise<void>,
  jobEnded: (lane: Lane) => void,
): Lane {
  let stopped = false;
  let again = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const runDue = async () => {
    await ensure();
    while (!stopped) {
      // A turn of the event loop between jobs: on the embedded database a query's promise
      // settles without any I/O, so a backlog of quick jobs would otherwise run in one unbroken
      // chain of microtasks, and no request (nor the server's own start) would be answered
      // until it was done.
      await nextTurn();
      const job = await claimJob(db, kinds);
      if (!job) return;
      const outcome = await runJob(db, byKind.get(job.kind)!, job);
      const fields = { kind: job.kind, id: job.id, attempt: job.attempts };
      if (!outcome.ok) {
        logEvent("error", "job-failed", { ...fields, error: outcome.error, then: outcome.outcome });
      } else if (!outcome.kept) {
        // It ran past its lease: another worker may have run it too.
        logEvent("warn", "job-lease-lost", fields);
      } else {
        logEvent("info", "job-done", { ...outcome.summary, ...fields });
      }
      jobEnded(lane);
    }
  };

  const schedule = () => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(look, JOB_POLL_MS);
    timer.unref();
  };

  /** One look at a time; a look asked for during one runs right after it. */
  function look() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        // The database away: logged, and the next poll tries again.
        await runDue().catch((error: unknown) =>
          logEvent("error", "jobs-unavailable", { error: errorMessage(error) }),
        );
      } while (again && !stopped);
    })().finally(() => {
      running = null;
      schedule();
    });
  }

  const lane: Lane = {
    wake: () => {
      clearTimeout(timer);
      look();
    },
    busy: () => running !== null,
    settled: async () => {
      while (running) await running;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
  look();
  return lane;
}

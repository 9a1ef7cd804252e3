/**
 * The federation's kinds of job, for the site's worker (server/jobs.ts). Fedify (about 55 MB
 * once loaded) is imported by the first job that runs, not when the server starts: a site
 * nobody follows never loads it for its jobs.
 */
import type { JobHandler } from "~/lib/jobs.server";

export const POST_CHANGED_JOB = "social.post-changed";
export const DELIVER_JOB = "social.deliver";

export const SOCIAL_JOBS: readonly JobHandler[] = [
  {
    kind: POST_CHANGED_JOB,
    run: async (db, job) => (await import("./outbox.server")).runPostChanged(db, job),
  },
  {
    kind: DELIVER_JOB,
    run: async (db, job) => (await import("./delivery.server")).runDelivery(db, job),
  },
];

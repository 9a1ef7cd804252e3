/**
 * The federation's kinds of job, for the site's worker (server/jobs.ts). Fedify (about 55 MB
 * once loaded) is imported by the first job that has something to send or receive, not when the
 * server starts: a site nobody follows never loads it for its jobs. With no follower, a post's change
 * is not federated at all (no one would receive it), so its first activity once someone follows
 * is a Create.
 */
import { sql } from "drizzle-orm";

import { socialFollowers } from "../../../database/schema";
import type { JobHandler } from "~/lib/jobs.server";

export const POST_CHANGED_JOB = "social.post-changed";
export const DELIVER_JOB = "social.deliver";
/** An activity an inbox took (signature checked), for its listener (inbox-queue.server.ts). */
export const INBOX_JOB = "social.inbox";

export const SOCIAL_JOBS: readonly JobHandler[] = [
  {
    kind: POST_CHANGED_JOB,
    // A published post reaches its followers within 5 s of the publish.
    prompt: true,
    run: async (db, job) => {
      const [anyone] = await db
        .select({ one: sql`1` })
        .from(socialFollowers)
        .limit(1);
      if (!anyone) return { skipped: "no followers" };
      return (await import("./outbox.server")).runPostChanged(db, job);
    },
  },
  {
    kind: DELIVER_JOB,
    prompt: true,
    run: async (db, job) => (await import("./delivery.server")).runDelivery(db, job),
  },
  {
    kind: INBOX_JOB,
    prompt: true,
    run: async (db, job) => (await import("./inbox-queue.server")).runInboxTask(db, job),
  },
];

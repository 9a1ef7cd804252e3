import { claimJob, runJob, type JobHandler } from "../../app/lib/jobs.server";
import type { TestDatabase } from "./databases";

/**
 * Runs the due jobs of `handlers` (or only those of `kinds`) until none is due, as the worker
 * would; a failed one waits for its retry. Returns what each run gave, in order.
 */
export async function runDueJobs(
  db: TestDatabase["db"],
  handlers: readonly JobHandler[],
  kinds?: string[],
): Promise<unknown[]> {
  const byKind = new Map(handlers.map((handler) => [handler.kind, handler]));
  const outcomes: unknown[] = [];
  for (;;) {
    const job = await claimJob(db, kinds ?? [...byKind.keys()]);
    if (!job) return outcomes;
    outcomes.push(await runJob(db, byKind.get(job.kind)!, job));
  }
}

/**
 * A queue that runs one job at a time, first in first out, with a bounded number waiting: the
 * image pipeline (./processing.server.ts) runs through one, so two uploads at once take turns
 * instead of decoding side by side, and a flood of them is answered "busy" at once instead of
 * holding every upload's bytes in memory until its turn.
 */

/** What `run` gives back: the job's value, or `busy` when it was not queued (nothing ran). */
export type Queued<T> = { ok: true; value: T } | { ok: false; busy: true };

export type JobQueue = {
  /**
   * Runs `job` once every job queued before it has finished (at once when none is), and
   * answers its value; a job that throws rejects its own call only, and the next one starts.
   * When `maxWaiting` jobs already wait behind the running one, answers `busy` at once.
   */
  run<T>(job: () => Promise<T>): Promise<Queued<T>>;
  /** Jobs queued behind the running one. */
  readonly waiting: number;
  /** Whether a job is running. */
  readonly busy: boolean;
};

export function createJobQueue(maxWaiting: number): JobQueue {
  let running = false;
  /** Each waiting job's start signal, oldest first. */
  const waiting: (() => void)[] = [];

  /** Hands the turn to the oldest waiting job, or frees the queue when none waits. */
  function next() {
    const start = waiting.shift();
    if (start) start();
    else running = false;
  }

  async function run<T>(job: () => Promise<T>): Promise<Queued<T>> {
    if (running) {
      if (waiting.length >= maxWaiting) return { ok: false, busy: true };
      // `running` stays true while the turn is handed over, so a job queued in between waits
      // behind this one: the order is the order of the calls.
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running = true;
    try {
      return { ok: true, value: await job() };
    } finally {
      next();
    }
  }

  return {
    run,
    get waiting() {
      return waiting.length;
    },
    get busy() {
      return running;
    },
  };
}

import { cpuUsage, memoryUsage } from "node:process";

import { AT_REST_COLLECTION } from "../app/lib/limits";
import { logEvent } from "../app/lib/log.server";

const MB = 1024 * 1024;

/** What the collector reads and does; the defaults are this process's own. */
export type AtRestProbes = {
  /** A full collection: V8's `gc`, which node exposes with --expose-gc (server/node-flags.mjs). */
  collect: () => void;
  /** Whether work outside requests is in hand (a job): its garbage is not all made yet. */
  busy: () => boolean;
  /** How many requests the server has been given so far. */
  requests: () => number;
  /** CPU time this process has used, in µs. */
  cpuMicros?: () => number;
  /** What a collection may give back: V8's heap in use and the memory of array buffers. */
  heldBytes?: () => number;
};

/**
 * V8's fullest collection, the one it runs before it gives up for want of memory: several
 * passes, and the heap's emptied pages given back. A plain `gc()` gave back a fifth of it.
 */
export const fullCollection = (gc: NodeJS.GCFunction) => () =>
  gc({ type: "major", execution: "sync", flavor: "last-resort" });

const ownCpuMicros = () => {
  const { user, system } = cpuUsage();
  return user + system;
};
const ownHeldBytes = () => {
  const { heapUsed, external } = memoryUsage();
  return heapUsed + external;
};

/**
 * Collects the garbage once the process is at rest after a burst of work
 * (AT_REST_COLLECTION says when, and why). A server with traffic never waits for this: V8
 * collects as it allocates, and a period with a request in it is not at rest. Measured on a
 * new data directory, 5 s after the first 200: 208.6–212.2 MB resident without it, 156.4–160.5
 * MB with it (docs/decisions/059-collect-at-rest.md).
 */
export function collectAtRest(
  { collect, busy, requests, cpuMicros = ownCpuMicros, heldBytes = ownHeldBytes }: AtRestProbes,
  { checkEveryMs, quietCpuShare, growthBytes } = AT_REST_COLLECTION,
) {
  const quietMicros = checkEveryMs * 1000 * quietCpuShare;
  let cpuBefore = cpuMicros();
  let requestsBefore = requests();
  // None yet: the start's own work (migrations, the seed) is the first burst.
  let heldAfterLast: number | null = null;
  const check = () => {
    const cpu = cpuMicros();
    const served = requests();
    const quiet = cpu - cpuBefore < quietMicros && served === requestsBefore;
    cpuBefore = cpu;
    requestsBefore = served;
    if (!quiet || busy()) return;
    const held = heldBytes();
    if (heldAfterLast !== null && held - heldAfterLast < growthBytes) return;
    const started = performance.now();
    collect();
    const ms = performance.now() - started;
    heldAfterLast = heldBytes();
    // The collection's own CPU is not the next period's work.
    cpuBefore = cpuMicros();
    logEvent("info", "memory_collected_at_rest", {
      heldMB: Math.round(held / MB),
      afterMB: Math.round(heldAfterLast / MB),
      ms: Math.round(ms),
    });
  };
  const timer = setInterval(check, checkEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

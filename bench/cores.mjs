// Which CPU core a measured server and its load generator run on, for bench/run.mjs.
//
// On the shared two-core machines this bench runs on, one core was at times half as fast as the
// other for seconds on end (another tenant's load): the same server process answered 35,000 req/s
// pinned to core 0 and 17,000 pinned to core 1, in the same minute. Left to the scheduler, the
// app could land on the slow core and its reference on the fast one, and the share between them
// said where each landed, not how fast each is. So each round of slices puts the main thread of
// every single-threaded server (the app, the node:http reference) on the same core and the load
// generator on the other, alternating cores from round to round.
//
// Linux only, through util-linux's `taskset`; elsewhere, or on one core, nothing is pinned.
import { execFileSync } from "node:child_process";
import os from "node:os";

/**
 * Core pinning for a run, through `taskset` (its path, or undefined when it is not on PATH):
 * `null` when it cannot be done here (not Linux, no taskset, one core), with `why` saying so
 * for the report.
 */
export function corePinning(taskset) {
  if (process.platform !== "linux") return { pinning: null, why: "not Linux" };
  if (!taskset) return { pinning: null, why: "no taskset (util-linux) on PATH" };
  if (os.availableParallelism() < 2) return { pinning: null, why: "one core" };
  return {
    pinning: {
      /** The server's core in round `round` (0, 1, 0, …); the load generator takes the other. */
      serverCore: (round) => round % 2,
      loadCore: (round) => 1 - (round % 2),
      /** Moves the thread `pid` (a process's main thread) to `core`; its other threads stay free. */
      pinThread(pid, core) {
        execFileSync(taskset, ["-p", "-c", String(core), String(pid)], { stdio: "ignore" });
      },
      /** `command argv` as run on `core`. */
      onCore(core, command, argv) {
        return [taskset, ["-c", String(core), command, ...argv]];
      },
    },
    why: null,
  };
}

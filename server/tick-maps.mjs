// Keeps the hidden classes ("maps") of Node's next-tick objects alive for the life of the process.
// Why: docs/decisions/057-keep-next-tick-maps.md.
//
// `process.nextTick` builds each queued tick as an object literal whose keys are symbols; V8 adds
// those keys through an inline cache that is either monomorphic (one map, a fast store) or
// megamorphic (a call into the runtime for every key, for good). Maps are weak: when a major
// garbage collection finds no tick object alive, which happens while the server creates and seeds
// a database, it frees them, the next tick gets new ones, and the cache turns megamorphic. Every
// answer queues about six ticks inside node:http, so from then on a cache hit cost about a tenth
// more of the main thread. One tick object held here holds its maps, and so the ones the cache
// saw first.
import { createHook } from "node:async_hooks";

/** @type {object | undefined} */
let kept;

/**
 * Takes one next-tick object as Node builds it and holds it. Call it first thing, before the
 * process has done enough to collect garbage. Returns the object (for tests); calling it again
 * keeps the first.
 */
export function keepTickObjectMaps() {
  if (kept) return kept;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === "TickObject") kept ??= resource;
    },
  }).enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  return kept;
}

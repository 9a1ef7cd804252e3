// The start of a child process that the next-tick test (server/tick-maps.test.ts) and its
// benchmark (bench/next-tick.mjs) both run: the state they look at is built here, once.

import path from "node:path";

const tickMaps = path.join(import.meta.dirname, "tick-maps.mjs");

/**
 * Source text for the first lines of an ES-module child run with --expose-gc: it holds a tick
 * object when `keep` (server/tick-maps.mjs), then frees what it can between rounds of ticks, as
 * a busy start does, which is when the tick objects' maps are lost without one held.
 */
export function tickChurnSource(keep) {
  return `
if (${keep}) (await import(${JSON.stringify(tickMaps)})).keepTickObjectMaps();
const noop = () => {};
for (let round = 0; round < 30; round++) {
  for (let i = 0; i < 10; i++) process.nextTick(noop);
  await new Promise((resolve) => setImmediate(resolve));
  globalThis.gc();
}
`;
}

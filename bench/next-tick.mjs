// npm run bench:next-tick: what one `process.nextTick` costs once the garbage collector has freed
// the maps of its tick objects (docs/decisions/057-keep-next-tick-maps.md), with and without
// server/tick-maps.mjs holding them. node:http queues about six ticks per answer, so this is paid
// on every cache hit. Each state runs in a process of its own (the state is per process), and the
// states alternate over rounds. A benchmark, not a test: it prints a markdown table of medians.
//   node bench/next-tick.mjs [rounds]
import { execFileSync } from "node:child_process";

import { tickChurnSource } from "../server/tick-churn.mjs";

const ROUNDS = Number(process.argv[2] ?? 5);
const TICKS = 2_000_000;

/** The child: collects garbage between rounds of ticks, as a busy start does, then times ticks. */
const child = (keep) => `${tickChurnSource(keep)}
const batch = () => new Promise((resolve) => {
  for (let i = 0; i < 999; i++) process.nextTick(noop);
  process.nextTick(resolve);
});
for (let i = 0; i < 200; i++) await batch();
const start = performance.now();
for (let i = 0; i < ${TICKS / 1000}; i++) await batch();
console.log(((performance.now() - start) * 1e6) / ${TICKS});
`;

const states = { "maps freed (no keeping)": false, "maps kept (server/tick-maps.mjs)": true };
const samples = Object.fromEntries(Object.keys(states).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, keep] of Object.entries(states)) {
    const out = execFileSync(
      process.execPath,
      ["--expose-gc", "--input-type=module", "-e", child(keep)],
      { encoding: "utf8" },
    );
    samples[name].push(Number(out.trim()));
  }
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const kept = median(samples["maps kept (server/tick-maps.mjs)"]);
console.log(
  `node ${process.version}; ${ROUNDS} rounds of ${TICKS.toLocaleString("en")} ticks per state\n`,
);
console.log("| state | ns per nextTick (median) | range | × kept |");
console.log("|---|---:|---:|---:|");
for (const [name, values] of Object.entries(samples)) {
  const m = median(values);
  const range = `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  console.log(`| ${name} | ${m.toFixed(0)} | ${range} | ${(m / kept).toFixed(2)} |`);
}

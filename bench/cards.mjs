// Share cards (app/features/cards): how long drawing takes, per card, in a batch of one (a
// child process started for it) and in a batch (the job's case), with and without the owner's
// photo; how big the PNGs are; and how long the event loop waited meanwhile (the drawing and
// the palette run in a child process, decision 049). Run: npm run bench:cards
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";

import { photo } from "./photo.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const { drawCards } = await import(path.join(ROOT, "build/server/index.js"));

const BATCH = 20;
const ROUNDS = 3;
const face = new Uint8Array(await photo(480, 480));
const card = (i, withPhoto) => ({
  heading: `Queues in PostgreSQL with SKIP LOCKED, part ${i + 1}: what a lease buys`,
  detail: "November 26, 2026",
  site: "Ada Lovelace",
  photo: withPhoto ? face : null,
});

/** The event loop's delay while nothing is drawn: this machine's own noise, to compare with. */
async function idleDelay(ms) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, ms));
  delay.disable();
  return delay;
}

const idle = await idleDelay(3000);
const rows = [
  {
    photo: "(idle, nothing drawn)",
    "cards per thread": 0,
    "ms per card (median)": "-",
    "KB per card (max)": "-",
    "event loop p99 ms": (idle.percentile(99) / 1e6).toFixed(1),
    "event loop max ms": (idle.max / 1e6).toFixed(1),
  },
];
for (const withPhoto of [false, true]) {
  for (const size of [1, BATCH]) {
    const times = [];
    let bytes = [];
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    for (let round = 0; round < ROUNDS; round++) {
      const cards = Array.from({ length: size }, (_, i) => card(i + round * size, withPhoto));
      const start = performance.now();
      const pngs = await drawCards(cards);
      times.push((performance.now() - start) / size);
      bytes = pngs.map((p) => p.byteLength);
    }
    delay.disable();
    times.sort((a, b) => a - b);
    rows.push({
      photo: withPhoto ? "yes" : "no",
      "cards per thread": size,
      "ms per card (median)": times[Math.floor(times.length / 2)].toFixed(0),
      "KB per card (max)": (Math.max(...bytes) / 1024).toFixed(1),
      "event loop p99 ms": (delay.percentile(99) / 1e6).toFixed(1),
      "event loop max ms": (delay.max / 1e6).toFixed(1),
    });
  }
}
console.table(rows);

// npm run bench:flags: what V8's flags cost and save when pages are rendered, not cached.
// Starts the production server with the page cache off under each flag set below, on a new
// data directory (created, migrated and seeded by that start) and on an existing one, loads
// /, /blog and a post in turn with wrk (one thread, 50 connections), and prints requests/s,
// p99 and the server's peak memory (VmHWM). A benchmark, not a test: it prints a table and
// asserts nothing. What it measured so far: docs/measurements/v8-flags-and-rendering.md.
//   --duration S   seconds of load per page (default 10)   --sets a,b   only these flag sets
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { NODE_ENV_SETTINGS, NODE_FLAGS } from "../server/node-flags.mjs";
import { runWrk } from "./wrk.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NODE = path.join(root, "node_modules/.bin/node");
const { values } = parseArgs({
  options: { duration: { type: "string", default: "10" }, sets: { type: "string" } },
});
const DURATION = Number(values.duration);

/** The flag sets compared: today's, none, the earlier memory-first set, and others tried. */
const ALL_SETS = {
  // WebAssembly on the baseline compiler and nothing else: V8's defaults for JavaScript and
  // its heap, so against "none" it shows what optimising PGlite's module alone is worth.
  production: NODE_FLAGS,
  none: [],
  // What the server ran with before throughput won over a 250 MB peak (decision 041).
  "size first (until decision 041)": [
    "--liftoff-only",
    "--max-semi-space-size=4",
    "--optimize-for-size",
  ],
  "semi-space only": ["--max-semi-space-size=4"],
  // Optimised WebAssembly, compiled one function at a time (V8 otherwise runs up to 128
  // compilation tasks at once, each with its own working memory) …
  "one wasm compile task": ["--max-semi-space-size=4", "--wasm-num-compilation-tasks=1"],
  // … and only the hottest functions (8 times V8's default budget before a tier-up).
  "one task 8x budget": [
    "--max-semi-space-size=4",
    "--wasm-num-compilation-tasks=1",
    "--wasm-tiering-budget=104000000",
  ],
  // Baseline WebAssembly and a small young generation, as today, but V8 optimising JavaScript
  // for speed; the old generation grows by 10% (or 30%) past what survives a full collection
  // instead of V8's own factor, which is what kept the heap small under --optimize-for-size.
  "heap growth 10%": ["--liftoff-only", "--max-semi-space-size=4", "--heap-growing-percent=10"],
  "heap growth 30%": ["--liftoff-only", "--max-semi-space-size=4", "--heap-growing-percent=30"],
  // The same with a 2 MB young generation, and with the collector's helper threads off (on two
  // cores they compete with rendering and with the load generator).
  "heap growth 10% semi 2": [
    "--liftoff-only",
    "--max-semi-space-size=2",
    "--heap-growing-percent=10",
  ],
  // A 16 MB young generation (V8's own size here) and an old generation allowed to grow by
  // half (or all) of what survives a full collection: between the 10% sets and V8's defaults.
  "heap growth 50% semi 16": [
    "--liftoff-only",
    "--max-semi-space-size=16",
    "--heap-growing-percent=50",
  ],
  "heap growth 100% semi 16": [
    "--liftoff-only",
    "--max-semi-space-size=16",
    "--heap-growing-percent=100",
  ],
  "heap growth 10% one GC thread": [
    "--liftoff-only",
    "--max-semi-space-size=4",
    "--heap-growing-percent=10",
    "--single-threaded-gc",
  ],
  "heap growth 10% semi 2 one GC thread": [
    "--liftoff-only",
    "--max-semi-space-size=2",
    "--heap-growing-percent=10",
    "--single-threaded-gc",
  ],
};
const SETS = values.sets
  ? Object.fromEntries(values.sets.split(",").map((name) => [name, ALL_SETS[name]]))
  : ALL_SETS;

const WRK = (() => {
  try {
    return execFileSync("which", ["wrk"], { encoding: "utf8" }).trim();
  } catch {
    console.error("wrk is not installed (apt-get install wrk)");
    process.exit(1);
  }
})();

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const peakMB = (pid) =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;

async function start(flags, dataDir) {
  const port = await freePort();
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "SMTP_URL", "RESEND_API_KEY"]) delete env[name];
  Object.assign(env, {
    ...NODE_ENV_SETTINGS,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    OWNER_PASSWORD: "bench-owner-password",
    SITE_URL: "https://www.example.com",
    SEED_DEMO: "true",
    PAGE_CACHE: "false",
  });
  const child = spawn(NODE, [...flags, "server.js"], { cwd: root, env, stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (flags: ${flags.join(" ")})`);
    try {
      if ((await fetch(`${base}/`)).status === 200) return { child, base };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not answer within 60 s");
}

async function stop(child) {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
}

async function measure(name, flags, dataDir) {
  const { child, base } = await start(flags, dataDir);
  try {
    const html = await (await fetch(`${base}/blog`)).text();
    const slug = /href="\/blog\/(?!tags"|new")([a-z0-9-]+)"/.exec(html)?.[1];
    const pages = ["/", "/blog", `/blog/${slug}`];
    const results = [];
    for (const page of pages) {
      const r = await runWrk(WRK, {
        url: `${base}${page}`,
        connections: 50,
        duration: DURATION,
        headers: { "accept-encoding": "gzip" },
      });
      if (r.errors || r.non2xx) throw new Error(`${name} ${page}: ${r.errors} errors, ${r.codes}`);
      results.push({ page, ...r });
    }
    return { results, peak: peakMB(child.pid) };
  } finally {
    await stop(child);
  }
}

const existing = mkdtempSync(path.join(os.tmpdir(), "bench-flags-existing-"));
// Made once, then every set starts on it as a restarted server would.
await stop((await start(NODE_FLAGS, existing)).child);

const rows = [];
for (const [name, flags] of Object.entries(SETS)) {
  for (const kind of ["new", "existing"]) {
    const dir = kind === "new" ? mkdtempSync(path.join(os.tmpdir(), "bench-flags-new-")) : existing;
    try {
      const { results, peak } = await measure(name, flags, dir);
      rows.push({ name, flags, kind, results, peak });
      console.error(
        `${name} (${kind}): ${results.map((r) => r.reqPerSec.toFixed(0)).join(" / ")} req/s, peak ${peak.toFixed(0)} MB`,
      );
    } finally {
      if (kind === "new" && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  }
}
rmSync(existing, { recursive: true, force: true });

const nodeVersion = execFileSync(NODE, ["--version"], { encoding: "utf8" }).trim();
console.log(
  `\nNode ${nodeVersion}, page cache off, wrk -t1 -c50, ${DURATION} s per page, gzip; req/s and p99 per page, peak memory (VmHWM) of the server over the whole run.\n`,
);
console.log(
  "| flags | data directory | / req/s | /blog req/s | post req/s | p99 ms (/, /blog, post) | peak MB |",
);
console.log("|---|---|---:|---:|---:|---|---:|");
for (const row of rows) {
  const [home, blog, post] = row.results;
  console.log(
    `| ${row.name}${row.flags.length ? ` (\`${row.flags.join(" ")}\`)` : ""} | ${row.kind} | ${home.reqPerSec.toFixed(0)} | ${blog.reqPerSec.toFixed(0)} | ${post.reqPerSec.toFixed(0)} | ${row.results.map((r) => r.p99Ms.toFixed(0)).join(", ")} | ${row.peak.toFixed(0)} |`,
  );
}

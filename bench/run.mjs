// npm run bench: the production server under load, next to a static reference serving the
// same bytes, with the page cache off and on, in one run. A benchmark, not a test: it prints a
// markdown table and PASS/MISS per target; the exit code is non-zero only when a request failed
// (an error, a timeout or a non-2xx answer) or the harness itself could not run.
//
//   --posts N        posts added to the demo content (default 0: the demo's own posts)
//   --duration S     seconds of load per URL (default 10), after --warmup S (default 2)
//   --rounds N       the duration is cut into N slices (default 10), the app's and each
//                    reference's taking turns, so a drift of this shared machine falls on both
//   --connections N  concurrent connections (default 50)
//   --cache on|off|both        page cache setting(s) to measure (default both: off, then on)
//   --reference auto|nginx|node  static reference servers (default auto: nginx when installed,
//                    and always a plain node:http server sending the same bytes from memory, the
//                    most this runtime can serve; cached pages are reported as a share of each)
//   --encoding gzip|identity   what clients accept (default gzip, like a browser)
//   --client auto|wrk|autocannon  load generator (default auto: wrk when installed). autocannon
//                    runs inside this Node process and takes most of a core; wrk, in C, takes
//                    far less of the two the server and the reference share.
//   --pin on|off     on (default, Linux with taskset): each round puts the app's and the node:http
//                    reference's main thread on one core and wrk on the other, alternating
//                    cores by round, so both meet the same core (bench/cores.mjs says why)
//   --json FILE      also write the results as JSON
//   --data-dir existing|new   existing (default): each measured server starts on the directory
//                    the first start created, as a restarted site does; new: each starts on an
//                    empty one that it creates, migrates and seeds itself, so its peak memory
//                    includes PGlite creating a database (demo posts only: --posts 0)
//
// Steps: a scratch data directory is created and seeded by starting the server once (SEED_DEMO),
// the extra posts are inserted in-process (bench/run-content.mjs), then for each cache setting the
// server is started on that existing directory, timed to its first 200 on GET /, loaded URL by
// URL (it and its references taking turns), and its memory read from /proc. With the cache on,
// pages it does not hold are then timed one at a time while the first page is under load.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import zlib from "node:zlib";

import autocannon from "autocannon";

import { NODE_ENV_SETTINGS, NODE_FLAGS } from "../server/node-flags.mjs";
import { corePinning } from "./cores.mjs";
import { pairedShare } from "./paired-share.mjs";
import { addPosts } from "./run-content.mjs";
import { mergedPercentileMs, runWrk } from "./wrk.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NODE = path.join(root, "node_modules/.bin/node");
const { PAGE_SIZE } = await import(path.join(root, "app/lib/constants.ts"));

const { values: args } = parseArgs({
  options: {
    posts: { type: "string", default: "0" },
    duration: { type: "string", default: "10" },
    rounds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    cache: { type: "string", default: "both" },
    reference: { type: "string", default: "auto" },
    encoding: { type: "string", default: "gzip" },
    client: { type: "string", default: "auto" },
    json: { type: "string" },
    "data-dir": { type: "string", default: "existing" },
    pin: { type: "string", default: "on" },
  },
});

function usage(message) {
  console.error(`bench/run.mjs: ${message}`);
  process.exit(2);
}
const wholeNumber = (name, min) => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min) usage(`--${name} expects a whole number ≥ ${min}`);
  return n;
};
const POSTS = wholeNumber("posts", 0);
const DURATION = wholeNumber("duration", 1);
const WARMUP = wholeNumber("warmup", 0);
/** Slices of the measured duration, whole seconds each (wrk's -d). */
const ROUNDS = Math.min(wholeNumber("rounds", 1), DURATION);
const SLICE_SECONDS = Math.floor(DURATION / ROUNDS);
const CONNECTIONS = wholeNumber("connections", 1);
const MODES = { both: ["off", "on"], on: ["on"], off: ["off"] }[args.cache];
if (!MODES) usage("--cache expects on, off or both");
const NEW_DATA_DIR = args["data-dir"] === "new";
if (!["existing", "new"].includes(args["data-dir"])) usage("--data-dir expects existing or new");
if (NEW_DATA_DIR && POSTS > 0) usage("--data-dir new measures the demo's posts only (--posts 0)");
if (!["auto", "nginx", "node"].includes(args.reference))
  usage("--reference expects auto, nginx or node");
if (!["gzip", "identity"].includes(args.encoding)) usage("--encoding expects gzip or identity");
if (!["auto", "wrk", "autocannon"].includes(args.client))
  usage("--client expects auto, wrk or autocannon");
if (!["on", "off"].includes(args.pin)) usage("--pin expects on or off");

/** Every request (probes, snapshots and load) sends these, so the bytes compared are the same. */
const HEADERS =
  args.encoding === "gzip"
    ? { accept: "text/html,*/*", "accept-encoding": "gzip, deflate, br" }
    : { accept: "text/html,*/*" };

const TARGETS = {
  /** Cached pages' req/s as a share of each reference's, in percent. */
  cachedPercentOf: { nginx: 30, node: 80 },
  cachedP99Ms: 20,
  uncachedP99Ms: 100,
  peakMemoryMB: 512,
  /** Resident memory at rest after the start's own work (migrations, seed, share cards). */
  idleMemoryMB: 200,
  /** A restarted site, on its existing data directory (a new one is reported, not judged). */
  first200Ms: 1500,
};
/** How long after its first 200 a server is left alone before its memory at rest is read. */
const IDLE_SETTLE_MS = 5000;
const POLL_MS = 20;
/** How the report names each reference server. */
const REFERENCE_NAMES = { nginx: "nginx", node: "node:http" };
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

// ---------------------------------------------------------------------------------------------
// Child processes and clean-up: every child and temp dir is registered here, and released on
// success, on failure and on SIGINT/SIGTERM. The exit hook is a last resort (no waiting there).

const children = new Set();
const tempDirs = new Set();
let cleaning;

function cleanup() {
  cleaning ??= (async () => {
    await Promise.all([...children].map((child) => child.stop()));
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    tempDirs.clear();
  })();
  return cleaning;
}
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers and removing the scratch files.`);
    cleanup().finally(() => process.exit(code));
  });
}
process.on("exit", () => {
  for (const child of children) child.process.kill("SIGKILL");
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Spawns a process whose output is kept (the last 200 lines) for when something goes wrong. */
function startChild(name, command, argv, options = {}) {
  const child = spawn(command, argv, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  const lines = [];
  const keep = (chunk) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 200));
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let exit;
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      children.delete(handle);
      resolve(exit);
    });
    child.on("error", (error) => {
      exit = { code: null, signal: null, error };
      children.delete(handle);
      resolve(exit);
    });
  });
  const handle = {
    name,
    process: child,
    exited,
    get exit() {
      return exit;
    },
    log: () => lines.join("\n"),
    /** SIGTERM, wait for the exit; SIGKILL after STOP_TIMEOUT_MS. */
    async stop(signal = "SIGTERM") {
      if (exit) return exit;
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  children.add(handle);
  return handle;
}

function describeExit(child) {
  const { code, signal, error } = child.exit;
  const how = error ? error.message : signal ? `signal ${signal}` : `code ${code}`;
  return `${child.name} exited (${how}). Its last output:\n${child.log()}`;
}

// ---------------------------------------------------------------------------------------------
// HTTP without fetch: fetch would decompress bodies and add its own headers; these are the raw
// bytes a client receives, with the same request headers as the load.

function get(port, urlPath, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: urlPath, headers: HEADERS, agent: false },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${urlPath} timed out`)));
    req.on("error", (error) =>
      reject(new Error(`GET ${urlPath} on port ${port}: ${error.message}`)),
    );
    req.end();
  });
}

function decoded({ headers, body }) {
  switch (headers["content-encoding"]) {
    case "gzip":
      return zlib.gunzipSync(body);
    case "deflate":
      return zlib.inflateSync(body);
    case "br":
      return zlib.brotliDecompressSync(body);
    default:
      return body;
  }
}

/** Polls GET urlPath every POLL_MS until it answers 200; returns the ms since `since`. */
async function waitFor200(child, port, urlPath, since) {
  for (;;) {
    if (child.exit) throw new Error(describeExit(child));
    if (performance.now() - since > START_TIMEOUT_MS)
      throw new Error(`${child.name} gave no 200 on ${urlPath} in ${START_TIMEOUT_MS} ms`);
    try {
      const response = await get(port, urlPath);
      if (response.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await sleep(POLL_MS);
  }
}

// ---------------------------------------------------------------------------------------------
// The application server.

/** The newest server process, whose output is shown when the run fails. */
let lastApp;

async function startApp({ dataDir, pageCache }) {
  const port = await freePort();
  const env = { ...process.env };
  // The bench always runs on its own embedded database, and sends no mail.
  for (const name of ["DATABASE_URL", "SMTP_URL", "RESEND_API_KEY"]) delete env[name];
  Object.assign(env, {
    ...NODE_ENV_SETTINGS,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    OWNER_PASSWORD: "bench-owner-password",
    // Fixed, so pages do not change with the port (SITE_URL defaults to http://localhost:$PORT).
    SITE_URL: "https://www.example.com",
    SEED_DEMO: "true",
    PAGE_CACHE: pageCache ? "true" : "false",
    // The misses below are told from hits by this header, which production leaves out.
    PAGE_CACHE_HEADER: "true",
  });
  const since = performance.now();
  const child = startChild(
    `server (PAGE_CACHE=${env.PAGE_CACHE})`,
    NODE,
    [...NODE_FLAGS, "server.js"],
    {
      cwd: root,
      env,
    },
  );
  lastApp = child;
  const first200Ms = await waitFor200(child, port, "/", since);
  // PGlite's start-up alone may set the peak: keep it apart from what the load adds.
  const startPeakMB = memoryOf(child.process.pid).peakMB;
  // The start's background jobs (a new directory's share cards, the recurring purges) run now.
  await sleep(IDLE_SETTLE_MS);
  const idleMB = memoryOf(child.process.pid).rssMB;
  return { child, port, first200Ms, startPeakMB, idleMB };
}

/** VmHWM (peak resident set) and VmRSS of a live process, in MB (MiB). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) / 1024;
  return { peakMB: field("VmHWM"), rssMB: field("VmRSS") };
}

// ---------------------------------------------------------------------------------------------
// Pages: found on the running site, and their bytes kept for the reference.

async function discoverPages(port, postCount) {
  const blog = await get(port, "/blog");
  if (blog.status !== 200) throw new Error(`GET /blog answered ${blog.status}`);
  const html = decoded(blog).toString("utf8");

  const lastPage = Math.max(1, Math.ceil(postCount / PAGE_SIZE));
  const linked = [...html.matchAll(/href="\/blog\?(?:[^"]*&amp;)?page=(\d+)/g)].map((m) =>
    Number(m[1]),
  );
  const linkedLast = Math.max(1, ...linked);
  if (linkedLast !== lastPage) {
    throw new Error(
      `/blog links to page ${linkedLast} as the last, but ${postCount} posts at ${PAGE_SIZE} a page make ${lastPage}`,
    );
  }
  const postSlug = /href="\/blog\/(?!tags"|new")([a-z0-9-]+)"/.exec(html)?.[1];
  if (!postSlug) throw new Error("/blog links to no post");

  return [
    { name: "home", path: "/" },
    { name: "blog", path: "/blog" },
    ...(lastPage > 1 ? [{ name: "last page", path: `/blog?page=${lastPage}` }] : []),
    { name: "post", path: `/blog/${postSlug}` },
    { name: "rss", path: "/rss.xml" },
  ];
}

/** The response as served now: status 200 required; body bytes and the headers worth copying. */
async function snapshot(port, urlPath) {
  const response = await get(port, urlPath);
  if (response.status !== 200) throw new Error(`GET ${urlPath} answered ${response.status}`);
  const skip = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
  const headers = Object.fromEntries(
    Object.entries(response.headers).filter(([name]) => !skip.has(name) && name !== "set-cookie"),
  );
  return { body: response.body, headers, text: decoded(response) };
}

// ---------------------------------------------------------------------------------------------
// The reference servers: nginx (when installed) and a bare node:http process, the same bytes.

function findExecutable(name, fallback) {
  for (const dir of (process.env.PATH ?? "").split(":").filter(Boolean)) {
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return fallback && existsSync(fallback) ? fallback : undefined;
}
const findNginx = () => findExecutable("nginx", "/usr/sbin/nginx");

const nginxString = (value) => `"${String(value).replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

function nginxConfig({ prefix, port, routes }) {
  const locations = routes.map(({ path: urlPath, file, headers }) => {
    const lines = [`default_type ${nginxString(headers["content-type"] ?? "text/html")};`];
    lines.push(`alias ${file};`);
    for (const [name, value] of Object.entries(headers)) {
      // nginx strings cannot escape "$" (it always starts a variable): such headers are left out.
      if (name === "content-type" || String(value).includes("$")) continue;
      lines.push(`add_header ${name} ${nginxString(value)} always;`);
    }
    return `    location = ${urlPath} {\n      ${lines.join("\n      ")}\n    }`;
  });
  return [
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
    "daemon off;",
    "master_process on;",
    "worker_processes auto;",
    "error_log stderr;",
    `pid ${prefix}/nginx.pid;`,
    "events { worker_connections 4096; }",
    "http {",
    "  access_log off;",
    "  types {}",
    "  sendfile on;",
    "  tcp_nopush on;",
    "  tcp_nodelay on;",
    "  etag off;",
    "  keepalive_timeout 65;",
    "  keepalive_requests 100000;",
    `  client_body_temp_path ${prefix}/client_body;`,
    `  proxy_temp_path ${prefix}/proxy;`,
    `  fastcgi_temp_path ${prefix}/fastcgi;`,
    "  server {",
    `    listen 127.0.0.1:${port};`,
    ...locations,
    "    location / { return 404; }",
    "  }",
    "}",
    "",
  ].join("\n");
}

async function startReference(dir, pages, kind) {
  const port = await freePort();
  const routes = pages.map((page, i) => {
    const file = path.join(dir, `${i}.body`);
    writeFileSync(file, page.snapshot.body);
    return { path: `/ref/${i}`, file, headers: page.snapshot.headers };
  });
  let child;
  let label;
  if (kind === "nginx") {
    const nginx = findNginx();
    const prefix = path.join(dir, "nginx");
    mkdirSync(prefix);
    const conf = path.join(prefix, "nginx.conf");
    writeFileSync(conf, nginxConfig({ prefix, port, routes }));
    // nginx -v prints "nginx version: nginx/1.22.1" on stderr.
    const version = spawnSync(nginx, ["-v"], { encoding: "utf8" }).stderr.trim();
    label = `nginx (${nginx}${version ? `, ${version}` : ""}, worker_processes auto)`;
    child = startChild("nginx", nginx, ["-p", `${prefix}/`, "-c", conf, "-e", "stderr"]);
  } else {
    const manifest = path.join(dir, "manifest.json");
    writeFileSync(manifest, JSON.stringify(routes));
    label = "node:http with fixed buffers (bench/run-reference-server.mjs)";
    child = startChild("reference server", NODE, [
      path.join(root, "bench/run-reference-server.mjs"),
      manifest,
      String(port),
    ]);
  }
  await waitFor200(child, port, routes[0].path, performance.now());
  // The reference must serve exactly the bytes the app served.
  for (const [i, page] of pages.entries()) {
    const response = await get(port, routes[i].path);
    if (response.status !== 200 || !response.body.equals(page.snapshot.body)) {
      throw new Error(`the reference does not serve the bytes of ${page.path}`);
    }
    page.refPaths = { ...page.refPaths, [kind]: routes[i].path };
  }
  return { child, port, label };
}

// ---------------------------------------------------------------------------------------------
// Load.

const failures = [];

const WRK = args.client === "autocannon" ? undefined : findExecutable("wrk");
if (args.client === "wrk" && !WRK) usage("--client wrk: no wrk on PATH (apt-get install wrk)");
/** The load generator in use, as the report names it. */
const CLIENT = WRK
  ? `wrk (${spawnSync(WRK, ["-v"], { encoding: "utf8" }).stdout.split("\n")[0].split(" [")[0].trim()}, one thread)`
  : "autocannon";

/** One autocannon run, in this process: whole-millisecond latencies. */
async function autocannonRun(url, duration) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers: HEADERS,
    timeout: 10,
  });
  const codes = Object.entries(result.statusCodeStats)
    .map(([code, { count }]) => `${code}×${count}`)
    .join(", ");
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    codes,
  };
}

/** One wrk run, in a process of its own; on `core` when given. */
const wrkRun = (url, duration, core) =>
  runWrk(WRK, {
    url,
    connections: CONNECTIONS,
    duration,
    headers: HEADERS,
    onCore: core === undefined ? undefined : (command, argv) => PINNING.onCore(core, command, argv),
  });

/** Core pinning for the slices (./cores.mjs), or null with the reason in PINNING_OFF. */
const { pinning: PINNING, why: PINNING_OFF } =
  args.pin === "off" ? { pinning: null, why: "--pin off" } : corePinning(findExecutable("taskset"));

/** Records a failure when a load run met errors or answers other than 2xx. */
function checkLoad(result, what) {
  if (result.errors > 0 || result.non2xx > 0) {
    failures.push(
      `${what}: ${result.errors} errors (${result.timeouts} timeouts), ` +
        `${result.non2xx} non-2xx; status codes: ${result.codes || "none"}`,
    );
  }
}

/**
 * Loads each target's URL for DURATION seconds in ROUNDS slices that take turns (target 1,
 * target 2, …, then again), after a warm-up each, and sums each target's slices: req/s is the
 * mean of its slices (all alike in length), p50 and p99 those of all their requests together
 * (with wrk; with autocannon, the slices' median p50 and worst p99). One after the
 * other, a server measured in a quiet moment and its reference in a busy one (or the reverse)
 * differed by a third on this two-core machine; taking turns puts a drift on both. With
 * PINNING, a target with a `pid` (a single-threaded server) has its main thread on the round's
 * core and wrk on the other; nginx (no pid, a worker per core) and wrk then run where the
 * system puts them.
 * `targets` are { port, path, label, exited, pid? }; `exited()` names a process that died, or
 * null.
 */
async function loadInTurns(targets) {
  const run = (target, duration, round) => {
    const url = `http://127.0.0.1:${target.port}${target.path}`;
    if (!WRK) return autocannonRun(url, duration);
    if (!PINNING || target.pid === undefined) return wrkRun(url, duration);
    PINNING.pinThread(target.pid, PINNING.serverCore(round));
    return wrkRun(url, duration, PINNING.loadCore(round));
  };
  const checked = async (target, duration, what, round = 0) => {
    const result = await run(target, duration, round);
    const died = target.exited();
    if (died) throw new Error(died);
    checkLoad(result, `${target.label} ${target.path} (${what})`);
    return result;
  };
  if (WARMUP > 0) for (const target of targets) await checked(target, WARMUP, "warm-up");
  const slices = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, target] of targets.entries()) {
      slices[index].push(await checked(target, SLICE_SECONDS, "measured", round));
    }
  }
  return slices.map((results) => {
    const sum = (key) => results.reduce((total, result) => total + result[key], 0);
    const sorted = (key) => results.map((result) => result[key]).sort((a, b) => a - b);
    const histograms = results.map((result) => result.latencyHistogram);
    const merged = histograms.every(Boolean);
    return {
      reqPerSec: sum("reqPerSec") / results.length,
      /** Each slice's req/s, round by round. */
      sliceReqPerSec: results.map((result) => result.reqPerSec),
      // Over every request of the slices (wrk); else the slices' median and worst (autocannon).
      p50Ms: merged
        ? mergedPercentileMs(histograms, 50)
        : sorted("p50Ms")[Math.floor((results.length - 1) / 2)],
      p99Ms: merged ? mergedPercentileMs(histograms, 99) : sorted("p99Ms").at(-1),
      /** The worst one-slice p99: a second-long stall shows here first. */
      worstSliceP99Ms: sorted("p99Ms").at(-1),
      requests: sum("requests"),
      non2xx: sum("non2xx"),
      errors: sum("errors"),
      timeouts: sum("timeouts"),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The run.

async function main() {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-run-"));
  tempDirs.add(scratch);
  const dataDir = path.join(scratch, "data");
  const refDir = path.join(scratch, "ref");
  mkdirSync(dataDir);
  mkdirSync(refDir);

  const nodeVersion = execFileSync(NODE, ["--version"], { encoding: "utf8" }).trim();
  if (args.reference === "nginx" && !findNginx())
    usage("--reference nginx: nginx is not installed");
  // node:http always: the ceiling of this runtime; nginx beside it when asked for or installed.
  const referenceKinds = [
    ...(args.reference === "nginx" || (args.reference === "auto" && findNginx()) ? ["nginx"] : []),
    "node",
  ];

  // 1. The data directory: created and seeded by a first start, then the extra posts.
  let started = performance.now();
  const seeding = await startApp({ dataDir, pageCache: false });
  const seedPeakMB = memoryOf(seeding.child.process.pid).peakMB;
  await seeding.child.stop();
  const seedSeconds = (performance.now() - started) / 1000;
  console.error(
    `New data directory created and seeded by a first start in ${seedSeconds.toFixed(1)} s.`,
  );

  started = performance.now();
  const { openDatabase } = await import(path.join(root, "build/server/index.js"));
  const database = await openDatabase({ dataDir });
  let postCount;
  try {
    postCount = await addPosts(database, POSTS);
  } finally {
    await database.close();
  }
  const postsSeconds = (performance.now() - started) / 1000;
  if (POSTS > 0) console.error(`${POSTS} posts added in ${postsSeconds.toFixed(1)} s.`);
  console.error(`${postCount} posts in the database.`);

  // 2–6. Each cache setting on a fresh server over that existing directory.
  let pages;
  let references;
  const runs = [];
  const warnings = [];
  for (const mode of MODES) {
    // With --data-dir new, an empty directory of its own: the server creates and seeds it.
    const runDir = NEW_DATA_DIR ? path.join(scratch, `data-${mode}`) : dataDir;
    if (NEW_DATA_DIR) mkdirSync(runDir);
    const app = await startApp({ dataDir: runDir, pageCache: mode === "on" });
    console.error(`PAGE_CACHE=${mode}: first 200 on GET / after ${Math.round(app.first200Ms)} ms.`);
    if (!pages) {
      pages = await discoverPages(app.port, postCount);
      for (const page of pages) page.snapshot = await snapshot(app.port, page.path);
      references = [];
      for (const kind of referenceKinds) {
        const dir = path.join(refDir, kind);
        mkdirSync(dir);
        const started = await startReference(dir, pages, kind);
        references.push({ kind, ...started });
        console.error(`Reference: ${started.label}.`);
      }
    } else {
      // Both settings must serve the same page (compared decoded: compression may differ).
      for (const page of pages) {
        const now = await snapshot(app.port, page.path);
        const [a, b] = [page.snapshot.text.toString("utf8"), now.text.toString("utf8")];
        if (a !== b) {
          let at = 0;
          while (a[at] === b[at]) at++;
          const near = (text) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 40));
          warnings.push(
            `${page.path} differs between PAGE_CACHE=${MODES[0]} and PAGE_CACHE=${mode} ` +
              `at character ${at}: ${near(a)} vs ${near(b)}`,
          );
        }
      }
    }
    const rows = [];
    for (const page of pages) {
      console.error(`PAGE_CACHE=${mode}: ${page.path} …`);
      const exited = (child) => () => (child.exit ? describeExit(child) : null);
      // The node:http reference right after the app in each round (the pair the share compares).
      const loadOrder = [
        ...references.filter(({ kind }) => kind === "node"),
        ...references.filter(({ kind }) => kind !== "node"),
      ];
      const [appResult, ...referenceResults] = await loadInTurns([
        {
          port: app.port,
          path: page.path,
          label: `app PAGE_CACHE=${mode}`,
          exited: exited(app.child),
          pid: app.child.process.pid,
        },
        ...loadOrder.map((reference) => ({
          port: reference.port,
          path: page.refPaths[reference.kind],
          label: reference.kind,
          exited: exited(reference.child),
          pid: reference.kind === "node" ? reference.child.process.pid : undefined,
        })),
      ]);
      const byReference = {};
      for (const [index, reference] of loadOrder.entries()) {
        const result = referenceResults[index];
        byReference[reference.kind] = {
          ...result,
          percent: pairedShare(appResult.sliceReqPerSec, result.sliceReqPerSec),
          percentOfMeans: (100 * appResult.reqPerSec) / result.reqPerSec,
        };
      }
      rows.push({
        page: page.name,
        path: page.path,
        bodyBytes: page.snapshot.body.length,
        app: appResult,
        references: byReference,
      });
    }
    // Read before the misses below, which fill the cache with pages nobody else asks for.
    const memory = memoryOf(app.child.process.pid);
    let misses;
    if (mode === "on") {
      console.error(`PAGE_CACHE=${mode}: pages not in the cache, under load …`);
      misses = await missesUnderLoad(app.port, pages);
      if (app.child.exit) throw new Error(describeExit(app.child));
    }
    await app.child.stop();
    runs.push({
      cache: mode,
      first200Ms: app.first200Ms,
      startPeakMB: app.startPeakMB,
      idleMB: app.idleMB,
      ...memory,
      rows,
      misses,
    });
  }
  for (const reference of references) await reference.child.stop();

  report({
    runs,
    references,
    postCount,
    nodeVersion,
    warnings,
    seedSeconds,
    seedPeakMB,
    postsSeconds,
  });
}

/**
 * Pages the cache does not hold, asked one at a time while CONNECTIONS connections read the
 * first page from the cache: what a visitor meets on a page nobody has asked for since the last
 * change. Blog list pages not loaded before (with 100,000 posts there are thousands), else
 * searches not made before. Not one of the targets (docs/product.md#targets: the uncached one
 * is the PAGE_CACHE=off run); reported beside them. Needs wrk: autocannon would share this
 * process's event loop with the probes.
 */
async function missesUnderLoad(port, pages) {
  if (!WRK) return { skipped: "needs wrk (autocannon runs in this process)" };
  const [background] = pages;
  const lastPage = Number(
    /[?&]page=(\d+)/.exec(pages.find((p) => p.name === "last page")?.path ?? "")?.[1] ?? 1,
  );
  // Pages 2 to lastPage - 1: the first and the last were loaded above, so they are cached.
  const probe = (i) => (i + 2 < lastPage ? `/blog?page=${i + 2}` : `/blog?q=bench-miss-${i}`);
  const loading = wrkRun(`http://127.0.0.1:${port}${background.path}`, DURATION);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const until = performance.now() + (DURATION - 1) * 1000;
  const latencies = [];
  const kinds = new Set();
  const wrong = [];
  for (let i = 0; performance.now() < until; i++) {
    const url = probe(i);
    kinds.add(url.includes("?page=") ? "list pages" : "searches");
    const started = performance.now();
    const response = await get(port, url);
    latencies.push(performance.now() - started);
    if (response.status !== 200 || response.headers["x-page-cache"] !== "miss") {
      wrong.push(`${url}: ${response.status}, X-Page-Cache ${response.headers["x-page-cache"]}`);
    }
  }
  const load = await loading;
  if (wrong.length > 0) {
    failures.push(
      `misses under load: ${wrong.length} probes were not rendered misses (${wrong[0]})`,
    );
  }
  checkLoad(load, `misses under load: the background load on ${background.path}`);
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)];
  return {
    background: background.path,
    kinds: [...kinds].join(" and "),
    renders: latencies.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: latencies.at(-1),
    load,
  };
}

// ---------------------------------------------------------------------------------------------
// The report.

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
/** A latency as the client measured it: wrk's to a tenth of a millisecond, autocannon's whole. */
const ms = (n) => (WRK ? fmt(n, 1) : fmt(n));
const verdict = (ok) => (ok ? "PASS" : "MISS");

function evaluateTargets(runs) {
  const targets = [];
  const on = runs.find((run) => run.cache === "on");
  const t = TARGETS;
  for (const kind of on ? Object.keys(on.rows[0]?.references ?? {}) : []) {
    const share = t.cachedPercentOf[kind];
    const misses = on.rows.filter(
      (row) => row.references[kind].percent < share || row.app.p99Ms > t.cachedP99Ms,
    );
    targets.push({
      target: `cached pages ≥ ${share}% of ${REFERENCE_NAMES[kind]}'s req/s with p99 ≤ ${t.cachedP99Ms} ms`,
      pass: misses.length === 0,
      detail: misses.map(
        (r) => `${r.path}: ${fmt(r.references[kind].percent)}%, p99 ${ms(r.app.p99Ms)} ms`,
      ),
    });
  }
  // "Uncached" is a page the cache does not hold, asked for while cached pages are under load
  // (what a visitor meets after the owner publishes, or with a new search): the misses line.
  // The cache-off rows measure rendering throughput under saturation, not a visitor's wait.
  if (on?.misses && !on.misses.skipped) {
    targets.push({
      target: `uncached p99 ≤ ${t.uncachedP99Ms} ms (pages not in the cache, under load)`,
      pass: on.misses.p99Ms <= t.uncachedP99Ms,
      detail: on.misses.p99Ms > t.uncachedP99Ms ? [`p99 ${fmt(on.misses.p99Ms, 1)} ms`] : [],
    });
  }
  const heavy = runs.filter((run) => run.peakMB > t.peakMemoryMB);
  targets.push({
    target: `peak memory (VmHWM) ≤ ${t.peakMemoryMB} MB`,
    pass: heavy.length === 0,
    detail: heavy.map((run) => `cache ${run.cache}: ${fmt(run.peakMB)} MB`),
  });
  const unsettled = runs.filter((run) => run.idleMB > t.idleMemoryMB);
  targets.push({
    target: `memory at rest after start (VmRSS ${IDLE_SETTLE_MS / 1000} s after the first 200) ≤ ${t.idleMemoryMB} MB`,
    pass: unsettled.length === 0,
    detail: unsettled.map((run) => `cache ${run.cache}: ${fmt(run.idleMB)} MB`),
  });
  // The target is a restarted site's (docs/product.md): a new directory's first start also
  // creates, migrates and seeds its database, and its time is reported above, not judged.
  if (!NEW_DATA_DIR) {
    const slow = runs.filter((run) => run.first200Ms > t.first200Ms);
    targets.push({
      target: `first 200 ≤ ${t.first200Ms / 1000} s (existing data directory)`,
      pass: slow.length === 0,
      detail: slow.map((run) => `cache ${run.cache}: ${fmt(run.first200Ms)} ms`),
    });
  }
  return targets;
}

function report({
  runs,
  references,
  postCount,
  nodeVersion,
  warnings,
  seedSeconds,
  seedPeakMB,
  postsSeconds,
}) {
  const targets = evaluateTargets(runs);
  const out = [];
  out.push(
    "",
    `${CLIENT}, ${CONNECTIONS} connections, ${ROUNDS * SLICE_SECONDS} s per URL ` +
      `after ${WARMUP} s warm-up, in ${ROUNDS} slices of ${SLICE_SECONDS} s ` +
      "that the app and its references take in turn; " +
      `Accept-Encoding: ${HEADERS["accept-encoding"] ?? "none"}. ` +
      "req/s is the mean of the slices' " +
      (WRK
        ? "(requests over each slice's length); p50 and p99 over every request of the slices " +
          "(wrk's latencies of each slice merged), in milliseconds; the JSON also holds the " +
          "worst slice's p99."
        : "(each the mean of per-second samples); p50 the slices' median, p99 their worst, " +
          "in whole milliseconds (autocannon's resolution)."),
    "A share (% of a reference) is the median over rounds of the app's req/s in a slice over " +
      "the reference's in the slice of the same round; the JSON also holds the ratio of the means.",
    WRK && PINNING
      ? "Cores: in each round the app's and the node:http reference's main thread run on one " +
          "core and wrk on the other, cores alternating by round (bench/cores.mjs); nginx and " +
          "wrk beside it run where the system puts them."
      : `Cores: not pinned (${WRK ? PINNING_OFF : "autocannon runs in this process"}).`,
    "",
    "| cache | page | body bytes | req/s | p50 ms | p99 ms | " +
      references
        .map(({ kind }) => {
          const name = REFERENCE_NAMES[kind];
          return `${name} req/s | ${name} p99 ms | % of ${name} | `;
        })
        .join("") +
      "non-2xx | errors |",
    `|---|---|${"---:|".repeat(6 + 3 * references.length)}`,
  );
  for (const run of runs) {
    for (const row of run.rows) {
      // In the columns' order (the order the references were loaded in may differ).
      const refs = references.map(({ kind }) => row.references[kind]);
      const sum = (pick) => pick(row.app) + refs.reduce((n, ref) => n + pick(ref), 0);
      out.push(
        `| ${run.cache} | ${row.page} \`${row.path}\` | ${row.bodyBytes} | ${fmt(row.app.reqPerSec)} | ` +
          `${ms(row.app.p50Ms)} | ${ms(row.app.p99Ms)} | ` +
          refs
            .map((ref) => `${fmt(ref.reqPerSec)} | ${ms(ref.p99Ms)} | ${fmt(ref.percent, 1)}% | `)
            .join("") +
          `${sum((r) => r.non2xx)} | ${sum((r) => r.errors)} |`,
      );
    }
  }
  out.push("");
  for (const run of runs) {
    out.push(
      `- cache ${run.cache}: first 200 on GET / ${fmt(run.first200Ms)} ms (${NEW_DATA_DIR ? "new" : "existing"} data directory); ` +
        `peak memory (VmHWM) ${fmt(run.peakMB, 1)} MB (${fmt(run.startPeakMB, 1)} MB of it ` +
        `reached by the first 200), VmRSS at rest after start ${fmt(run.idleMB, 1)} MB, ` +
        `VmRSS at the end ${fmt(run.rssMB, 1)} MB`,
    );
    const misses = run.misses;
    if (misses?.skipped)
      out.push(`- cache ${run.cache}, pages not in the cache: ${misses.skipped}`);
    else if (misses) {
      out.push(
        `- cache ${run.cache}, pages not in the cache, one at a time while ${CONNECTIONS} ` +
          `connections read cached \`${misses.background}\`: ${misses.renders} renders ` +
          `(${misses.kinds} not asked for before), ` +
          `p50 ${fmt(misses.p50Ms, 1)} ms, p99 ${fmt(misses.p99Ms, 1)} ms, ` +
          `max ${fmt(misses.maxMs, 1)} ms; the cached page meanwhile ${fmt(misses.load.reqPerSec)} ` +
          `req/s, p99 ${ms(misses.load.p99Ms)} ms (the uncached target reads this line)`,
      );
    }
  }
  out.push(
    `- posts: ${postCount} (${POSTS} generated in ${fmt(postsSeconds, 1)} s; ` +
      `new data directory created and seeded in ${fmt(seedSeconds, 1)} s by a first start ` +
      `whose peak memory was ${fmt(seedPeakMB, 1)} MB)`,
    ...references.map((reference) => `- reference: ${reference.label}`),
    `- node ${nodeVersion}; ${os.cpus().length} CPUs; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
    "",
    "Targets:",
  );
  for (const target of targets) {
    const detail = target.detail.length ? ` (${target.detail.join("; ")})` : "";
    out.push(`- ${verdict(target.pass)} ${target.target}${detail}`);
  }
  for (const warning of warnings) out.push(`- WARNING: ${warning}`);
  if (failures.length) {
    out.push("", "FAILED requests:", ...failures.map((f) => `- ${f}`));
  }
  console.log(out.join("\n"));

  if (args.json) {
    const results = {
      date: new Date().toISOString(),
      node: nodeVersion,
      cpus: os.cpus().length,
      loadAverage: os.loadavg(),
      settings: {
        posts: POSTS,
        duration: ROUNDS * SLICE_SECONDS,
        rounds: ROUNDS,
        warmup: WARMUP,
        connections: CONNECTIONS,
        encoding: args.encoding,
        pinned: Boolean(WRK && PINNING),
      },
      postCount,
      seedSeconds,
      postsSeconds,
      references: references.map((reference) => reference.label),
      runs,
      targets,
      warnings,
      failures,
    };
    writeFileSync(args.json, JSON.stringify(results, null, 2) + "\n");
  }
}

try {
  await main();
} catch (error) {
  console.error(`\nbench/run.mjs failed: ${error instanceof Error ? error.message : error}`);
  if (lastApp && !lastApp.exit) {
    console.error(
      `\n${lastApp.name}, its last output:\n${lastApp.log().split("\n").slice(-30).join("\n")}`,
    );
  }
  process.exitCode = 1;
} finally {
  await cleanup();
}
if (failures.length) {
  console.error(`\n${failures.length} load run(s) had failed requests; see above.`);
  process.exitCode = 1;
}
// Nothing is left to wait for; exit rather than on whatever handle a library keeps open.
process.exit();

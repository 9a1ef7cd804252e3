// npm run bench:media: uploads served by the built production server (server/media/) against
// nginx serving the same files from a folder, in the same run. A benchmark, not a test: it
// prints a markdown table and asserts nothing; the exit code is non-zero only when a request
// failed (an error, a timeout or an answer other than 200) or the harness could not run.
//
// Steps: a scratch data directory gets a new embedded database (the bundle's own openDatabase
// and migrations) holding a 200 KB JPEG (noise, so it does not compress) and a 10 MB PDF, as
// uploads are stored; the same bytes are written to a folder nginx serves (one worker, as the
// site has one event loop; sendfile and open_file_cache on, access log off). Then `node
// server.js` starts on that directory, and each case is loaded with autocannon (in this
// process of its own) against the site and then nginx, after a warm-up: the site's first requests read
// the files from the database into its local copies (DATA_DIR/media-cache), as after a deploy.
// While each runs, /healthz is asked every 50 ms on a connection of its own, timed from when
// each probe was due (of nginx too: there it shows what the machine's load alone costs the site). The server's peak memory (VmHWM) is read from /proc at the end.
//
//   --duration S     seconds of load per case (default 10), after --warmup S (default 2)
//   --connections N  connections for the image (default 50); the CV is fetched by 10 clients
//                    twice each and by 200 clients once each, all at once (no duration)
//   --port N         the site's port (default 4301); nginx takes the next one
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import sharp from "sharp";

import { NODE_ENV_SETTINGS, NODE_FLAGS } from "../server/node-flags.mjs";
import { runWrk } from "./wrk.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NODE = path.join(root, "node_modules/.bin/node");
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const AUTOCANNON = path.join(root, "node_modules/autocannon/autocannon.js");
/**
 * wrk, when installed (`apt-get install wrk`), loads the timed case: autocannon tops out near
 * 65 MB/s on these machines, below what either server sends, so its ratio says little.
 */
const WRK = [process.env.WRK_PATH, "/usr/bin/wrk", "/usr/local/bin/wrk"].find(
  (candidate) => candidate && existsSync(candidate),
);
const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    port: { type: "string", default: "4301" },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const SITE_PORT = Number(args.port);
const NGINX_PORT = SITE_PORT + 1;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const failures = [];

/** A JPEG of noise, just over `bytes` long. */
async function noiseJpeg(bytes) {
  for (let side = 400; ; side += 10) {
    const raw = randomBytes(side * side * 3);
    const jpeg = await sharp(raw, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 80 })
      .toBuffer();
    if (jpeg.length >= bytes) return jpeg;
  }
}

/** The files, stored as uploads are: under their SHA-256, their bytes in `media_parts`. */
async function storeFiles(dataDir, files) {
  const { openDatabase, storeMedia } = await import(path.join(root, "build/server/index.js"));
  const database = await openDatabase({ dataDir });
  await database.migrate(path.join(root, "database/migrations"));
  for (const file of files) {
    const [stored] = await storeMedia(database.db, file.purpose, [
      { contentType: file.type, bytes: file.bytes, width: null, height: null },
    ]);
    if (stored.hash !== file.hash) throw new Error(`${file.ext} was stored under another hash`);
  }
  await database.close();
}

const nginxConf = (dir, filesDir) => `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  open_file_cache max=100;
  keepalive_requests 100000;
  types { image/jpeg jpg; application/pdf pdf; }
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  server {
    listen 127.0.0.1:${NGINX_PORT};
    location /media/ {
      alias ${filesDir}/;
      add_header Cache-Control "public, max-age=31536000, immutable";
    }
  }
}
`;

function start(name, command, argv, options) {
  const child = spawn(command, argv, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return { name, child, output: () => output };
}

function get(port, urlPath) {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: urlPath, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", () => resolve(0));
  });
}

async function waitFor(proc, port, urlPath) {
  for (let i = 0; i < 300; i++) {
    if ((await get(port, urlPath)) === 200) return;
    if (proc.child.exitCode !== null) break;
    await sleep(100);
  }
  throw new Error(`${proc.name} did not start:\n${proc.output()}`);
}

/** /healthz every 50 ms while `during` runs, each timed from when it was due. */
async function probeHealth(during) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  let running = true;
  const loop = (async () => {
    let due = performance.now();
    while (running) {
      await new Promise((resolve) => {
        const req = http.get(
          { host: "127.0.0.1", port: SITE_PORT, path: "/healthz", agent },
          (res) => {
            res.resume();
            res.on("end", resolve);
          },
        );
        req.on("error", resolve);
      });
      times.push(performance.now() - due);
      due += 50;
      await sleep(Math.max(0, due - performance.now()));
    }
  })();
  const result = await during;
  running = false;
  await loop;
  agent.destroy();
  times.sort((a, b) => a - b);
  return { result, healthP99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] };
}

/** One autocannon run in a process of its own, so that this one's loop is free for the probe. */
function autocannonRun(url, connections, { duration, amount }) {
  return new Promise((resolve, reject) => {
    const argv = [AUTOCANNON, "--json", "-c", String(connections)];
    argv.push(...(amount ? ["-a", String(amount)] : ["-d", String(duration)]));
    const child = spawn(NODE, [...argv, "-t", "60", url], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("exit", () => {
      try {
        resolve(JSON.parse(out.trim().split("\n").at(-1)));
      } catch {
        reject(new Error(`autocannon printed no result: ${out.slice(0, 400)}`));
      }
    });
  });
}

/** A timed run with wrk (one thread), in autocannon's terms; `bytes` is the file's size. */
async function wrkLoad(url, connections, bytes, label) {
  if (WARMUP > 0) await runWrk(WRK, { url, connections, duration: WARMUP, headers: {} });
  const { result, healthP99 } = await probeHealth(
    runWrk(WRK, { url, connections, duration: DURATION, headers: {} }),
  );
  if (result.errors > 0 || result.non2xx > 0) {
    failures.push(
      `${label}: ${result.errors} errors (${result.timeouts} timeouts), ${result.codes}`,
    );
  }
  return {
    reqPerSec: result.reqPerSec,
    mbPerSec: (result.reqPerSec * bytes) / 1e6,
    seconds: DURATION,
    p50: result.p50Ms,
    p99: result.p99Ms,
    healthP99,
  };
}

async function load(port, urlPath, connections, amount, label, bytes) {
  const url = `http://127.0.0.1:${port}${urlPath}`;
  if (WRK && !amount) return wrkLoad(url, connections, bytes, label);
  if (WARMUP > 0) await autocannonRun(url, connections, { duration: WARMUP });
  const run = amount ? { amount } : { duration: DURATION };
  const { result, healthP99 } = await probeHealth(autocannonRun(url, connections, run));
  if (result.errors > 0 || result.non2xx > 0) {
    failures.push(
      `${label}: ${result.errors} errors (${result.timeouts} timeouts), ${result.non2xx} non-2xx`,
    );
  }
  return {
    reqPerSec: result.requests.total / (result.duration || 1),
    mbPerSec: result.throughput.total / 1e6 / (result.duration || 1),
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    healthP99,
  };
}

const memoryOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
};

async function main() {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-media-"));
  const dataDir = path.join(scratch, "data");
  const filesDir = path.join(scratch, "files");
  mkdirSync(filesDir);
  const image = await noiseJpeg(200_000);
  const cv = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(10_000_000 - 9)]);
  const files = [
    { name: "image", bytes: image, type: "image/jpeg", ext: "jpg", purpose: "image" },
    { name: "cv", bytes: cv, type: "application/pdf", ext: "pdf", purpose: "cv" },
  ].map((file) => ({ ...file, hash: createHash("sha256").update(file.bytes).digest("hex") }));
  for (const file of files)
    writeFileSync(path.join(filesDir, `${file.hash}.${file.ext}`), file.bytes);
  await storeFiles(dataDir, files);
  writeFileSync(path.join(scratch, "nginx.conf"), nginxConf(scratch, filesDir));

  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "PAGE_CACHE", "MEDIA_CACHE_MB", "SITE_URL", "HOST"])
    delete env[name];
  const site = start("the site", NODE, [...NODE_FLAGS, "server.js"], {
    cwd: root,
    env: {
      ...env,
      ...NODE_ENV_SETTINGS,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(SITE_PORT),
      DATA_DIR: dataDir,
      SEED_DEMO: "false",
      OWNER_PASSWORD: "bench-media-owner-password",
    },
  });
  const nginx = start("nginx", NGINX, ["-c", path.join(scratch, "nginx.conf"), "-p", scratch]);
  const rows = [];
  try {
    const [imageFile, cvFile] = files;
    const urlOf = (file) => `/media/${file.hash}.${file.ext}`;
    await waitFor(site, SITE_PORT, "/healthz");
    await waitFor(nginx, NGINX_PORT, urlOf(imageFile));
    // The CV: each client fetches it twice (10 clients) or once (200), all at once.
    const cases = [
      [`200 KB image, ${args.connections} connections`, imageFile, Number(args.connections), 0],
      ["10 MB CV, 10 clients × 2", cvFile, 10, 20],
      ["10 MB CV, 200 clients × 1", cvFile, 200, 200],
    ];
    for (const [label, file, connections, amount] of cases) {
      const size = file.bytes.length;
      const ours = await load(SITE_PORT, urlOf(file), connections, amount, `site ${label}`, size);
      const theirs = await load(
        NGINX_PORT,
        urlOf(file),
        connections,
        amount,
        `nginx ${label}`,
        size,
      );
      rows.push({ label, ours, theirs });
    }
    const memory = memoryOf(site.child.pid);
    const fmt = (n, digits = 0) => (n === null ? "–" : n.toFixed(digits));
    console.log(
      `\nUploads: the built server (node server.js, one process) against nginx (${NGINX}, one worker), ` +
        `${WRK ? "wrk (one thread) for the image, autocannon for the CV" : "autocannon"}, ` +
        `${DURATION} s per case after ${WARMUP} s of warm-up, on ${os.cpus().length} cores\n`,
    );
    console.log(
      "| case | server | s | req/s | MB/s | p50 ms | p99 ms | /healthz p99 ms | site/nginx req/s |",
    );
    console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const { label, ours, theirs } of rows) {
      const ratio = ours.reqPerSec / theirs.reqPerSec;
      for (const [name, r] of [
        ["site", ours],
        ["nginx", theirs],
      ]) {
        console.log(
          `| ${label} | ${name} | ${fmt(r.seconds, 1)} | ${fmt(r.reqPerSec)} | ${fmt(r.mbPerSec)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ` +
            `${fmt(r.healthP99, 1)} | ${name === "site" ? fmt(ratio, 2) : ""} |`,
        );
      }
    }
    console.log(
      `\nThe site's memory after the run: ${fmt(memory.rssMb)} MB resident, peak ${fmt(memory.peakMb)} MB.`,
    );
  } finally {
    site.child.kill("SIGTERM");
    nginx.child.kill("SIGTERM");
    await sleep(500);
    rmSync(scratch, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\nFailed requests:\n${failures.join("\n")}`);
    process.exitCode = 1;
  }
}

await main();

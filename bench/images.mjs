// npm run bench:images: what an image upload costs the server, in time, memory and CPU taken
// from the requests. Each case runs in a new process (so its peak RSS is its own), on the built
// site in-process with a new PGlite database, as the owner: one POST /api/images (or two at
// once), after one small warm-up upload. A benchmark, not a test: it prints a table and asserts
// nothing.
//
// Columns: the answers' statuses; the upload's wall time; the CPU time the process spent in it
// and "cores", that CPU time over the wall time (how many of the machine's cores the upload kept
// busy: with 2 cores, anything near 2 leaves nothing to the requests); the process's RSS before
// it and its highest RSS while it ran (sampled every 10 ms; PGlite's own memory is most of it,
// and pages freed before the upload are reused unseen, so RSS shows only what outgrew them);
// libvips' pixel memory (the high-water mark of its tracked allocations; raw pixels handed to
// JavaScript are not among them); the event loop's worst delay.
//
//   --build DIR     the build to run, relative to the repository (default: build)
//   --before DIR    also run each case on this build (e.g. a copy of an older build, under
//                   .test-output/ so it finds node_modules), alternating with --build
//   --threads N     sharp.concurrency(N) after the build loaded (default: what the build sets)
//   --case NAME     one case only (default: all)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import sharp from "sharp";
import { photo } from "./photo.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    build: { type: "string", default: "build" },
    before: { type: "string" },
    threads: { type: "string" },
    case: { type: "string" },
    child: { type: "string" },
    fixtures: { type: "string" },
  },
});
const PASSWORD = "bench-owner-password";
const MB = 1024 * 1024;

/** Solid frames in turn of five colours: the review's GIF is 50 of 1000 × 1000, about 86 KB. */
async function animatedGif(frames, side) {
  const colours = ["#dc1414", "#1414dc", "#14a014", "#f0c800", "#7800a0"];
  const pngs = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width: side, height: side, channels: 3, background: colours[i % 5] } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pngs, { join: { animated: true } })
    .gif({ delay: Array(frames).fill(100) })
    .toBuffer();
}

/** Each case: its label, and the fixture files it uploads at once. */
const CASES = {
  gif50: { label: "GIF, 50 frames of 1000×1000", files: ["gif50"] },
  gif25: { label: "GIF, 25 frames of 1000×1000 (within the limit)", files: ["gif25"] },
  photo: { label: "JPEG photo, 4000×3000", files: ["photo"] },
  two: { label: "two JPEG photos at once, 4000×3000", files: ["photo", "photo"] },
};

/** One case, in this process: prints one JSON line. */
async function child(name, fixturesDir, build) {
  const { openDatabase, parseEnv, createSiteApp, setOwnerPassword } = await import(
    path.join(root, build, "server", "index.js")
  );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-images-"));
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate(path.join(root, "database/migrations"));
    await setOwnerPassword(database.db, PASSWORD);
    const env = parseEnv({
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      SITE_URL: "http://localhost",
    });
    const app = createSiteApp({ env, database, root, buildDirectory: build });
    const signIn = await app.request("http://localhost/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
      body: new URLSearchParams({ password: PASSWORD }).toString(),
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
    if (signIn.status !== 302 || !cookie) throw new Error(`sign-in answered ${signIn.status}`);
    const upload = async (bytes) => {
      const form = new FormData();
      form.append("image", new Blob([bytes]), "upload");
      const response = await app.request("http://localhost/api/images", {
        method: "POST",
        headers: { cookie, origin: "http://localhost" },
        body: form,
      });
      await response.arrayBuffer();
      return response.status;
    };
    const read = (file) => readFileSync(path.join(fixturesDir, `${file}.bin`));
    const small = sharp({ create: { width: 64, height: 64, channels: 3, background: "#888" } });
    await upload(await small.png().toBuffer());
    // After the warm-up: the build sets sharp's threads when its image pipeline first loads.
    if (values.threads) sharp.concurrency(Number(values.threads));

    const files = CASES[name].files.map(read);
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const sample = () => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    };
    const sampler = setInterval(sample, 10);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const statuses = await Promise.all(files.map(upload));
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    clearInterval(sampler);
    sample();
    delay.disable();
    const cpuMs = (used.user + used.system) / 1000;
    const line = {
      statuses,
      ms,
      cpuMs,
      cores: cpuMs / ms,
      rssBefore: rssBefore / MB,
      rssPeak: rssPeak / MB,
      // In MB already.
      vipsPeak: sharp.cache().memory.high,
      loopMax: delay.max / 1e6,
      threads: sharp.concurrency(),
    };
    console.log(JSON.stringify(line));
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (values.child) {
  await child(values.child, values.fixtures, values.build);
} else {
  const fixturesDir = mkdtempSync(path.join(os.tmpdir(), "bench-images-fixtures-"));
  try {
    const fixtures = {
      gif50: await animatedGif(50, 1000),
      gif25: await animatedGif(25, 1000),
      photo: await photo(4000, 3000),
    };
    for (const [name, bytes] of Object.entries(fixtures)) {
      writeFileSync(path.join(fixturesDir, `${name}.bin`), bytes);
    }
    const names = values.case ? [values.case] : Object.keys(CASES);
    const builds = values.before ? [values.before, values.build] : [values.build];
    const rows = [];
    for (const name of names) {
      for (const build of builds) {
        const args = [
          "--expose-gc",
          fileURLToPath(import.meta.url),
          ...["--child", name, "--fixtures", fixturesDir, "--build", build],
          ...(values.threads ? ["--threads", values.threads] : []),
        ];
        const run = spawnSync(process.execPath, args, { encoding: "utf8", cwd: root });
        const last = run.stdout.trim().split("\n").at(-1) ?? "";
        if (run.status !== 0 || !last.startsWith("{")) {
          throw new Error(`case ${name} failed:\n${run.stdout}\n${run.stderr}`);
        }
        const kb = CASES[name].files.map((file) => Math.round(fixtures[file].length / 1000));
        rows.push({ name, build, kb, ...JSON.parse(last) });
      }
    }
    const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
    console.log(`\nImage uploads (POST /api/images), ${os.cpus().length} cores\n`);
    console.log(
      "| case | build | KB | status | time, ms | CPU, ms | cores | RSS before, MB | peak RSS, MB | libvips peak, MB | event loop max, ms | sharp threads |",
    );
    console.log("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const row of rows) {
      const cells = [
        CASES[row.name].label,
        row.build,
        row.kb.join(" + "),
        row.statuses.join(", "),
        fmt(row.ms),
        fmt(row.cpuMs),
        fmt(row.cores, 2),
        fmt(row.rssBefore),
        fmt(row.rssPeak),
        fmt(row.vipsPeak),
        fmt(row.loopMax, 1),
        row.threads,
      ];
      console.log(`| ${cells.join(" | ")} |`);
    }
  } finally {
    rmSync(fixturesDir, { recursive: true, force: true });
  }
}

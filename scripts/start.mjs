// `npm start`: builds the site only when what the build reads has changed since the last build,
// then `npm run serve` starts it. Two starts of one checkout at once take turns: the second
// waits for the first's build (a lock file beside the build folder) and then finds it up to date,
// instead of emptying the folder under it.
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import {
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

import { buildDirectory } from "../server/build-directory.mjs";

/**
 * What `react-router build` reads: the app and the server entry it bundles (vite.config.ts), the
 * database code and migrations, the demo content, the static files, the configuration, the
 * embedded database template's writer (react-router.config.ts) and the installed packages'
 * versions. Tests are not read by the build.
 */
export const BUILD_INPUTS = [
  "app",
  "server",
  "database",
  "content",
  "public",
  "scripts/pglite-template.mjs",
  "react-router.config.ts",
  "vite.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];
const NOT_READ = /\.test\.tsx?$/;
/** Environment the build's output depends on: which routes it has, and React's mode. */
const BUILD_ENV = ["TEST_ROUTES", "NODE_ENV"];

/** Where a build records the fingerprint of the sources it was made from. */
const FINGERPRINT = ".fingerprint";
/** A builder touches its lock this often; a lock untouched for STALE_MS is a dead builder's. */
const HEARTBEAT_MS = 2_000;
const STALE_MS = 30_000;
const POLL_MS = 250;

function filesUnder(root, entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((item) => item.isFile())
    .map((item) => path.relative(root, path.join(item.parentPath, item.name)))
    .filter((file) => !NOT_READ.test(file));
}

/** A hash of every build input's path and content, the Node version and the build's settings. */
export function fingerprint(root, inputs = BUILD_INPUTS) {
  const hash = createHash("sha256");
  hash.update(`node ${process.version}\n`);
  for (const name of BUILD_ENV) hash.update(`${name}=${process.env[name] ?? ""}\n`);
  const files = inputs.flatMap((entry) => filesUnder(root, entry));
  for (const file of [...new Set(files)].sort()) {
    hash.update(`${file.split(path.sep).join("/")}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Whether `buildDir` holds a whole build made from sources with this fingerprint. */
function upToDate(buildDir, print) {
  const recorded = path.join(buildDir, FINGERPRINT);
  if (!existsSync(path.join(buildDir, "server", "index.js")) || !existsSync(recorded)) {
    return false;
  }
  return readFileSync(recorded, "utf8").trim() === print;
}

function readLock(file) {
  try {
    return { ...JSON.parse(readFileSync(file, "utf8")), touched: statSync(file).mtimeMs };
  } catch {
    return null; // gone, or caught half-written: look again
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** A lock whose builder died: its process is gone (this machine), or it stopped touching it. */
function isStale(lock) {
  if (Date.now() - lock.touched > STALE_MS) return true;
  return lock.host === hostname() && !alive(lock.pid);
}

/**
 * Takes a stale lock away. Renamed first, so that of two starts that both judged it stale only
 * one removes it; a lock found in its place after all (a new builder's) is put back.
 */
function removeStale(file, stale) {
  const claim = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, claim);
  } catch {
    return;
  }
  if (readLock(claim)?.token !== stale.token) {
    try {
      linkSync(claim, file);
    } catch {
      // A third start holds the lock by now; the one moved aside was never used to build.
    }
  }
  rmSync(claim, { force: true });
}

/**
 * Holds the lock file `file` (created whole or not at all), waiting while another live process
 * holds it. Returns the function that releases it.
 */
export async function acquireLock(file, log = console.log) {
  const token = randomUUID();
  let announced = false;
  for (;;) {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, host: hostname(), token }), {
        flag: "wx",
      });
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    const held = readLock(file);
    if (held && isStale(held)) {
      log(`Removing the build lock of a start that is gone (pid ${held.pid}).`);
      removeStale(file, held);
      continue;
    }
    if (held && !announced) {
      log(`Another start is building the site (pid ${held.pid}); waiting for it.`);
      announced = true;
    }
    await sleep(POLL_MS);
  }
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(file, now, now);
    } catch {
      // Taken away as stale after all; the build goes on, and the next start checks it.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return () => {
    clearInterval(heartbeat);
    if (readLock(file)?.token === token) rmSync(file, { force: true });
  };
}

function run([command, ...args], cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")}: ${signal ?? code}`)),
    );
  });
}

/**
 * Builds into `buildDir` unless it already holds a build of today's sources, one start at a time.
 * Returns whether it built.
 */
export async function buildIfNeeded({
  root,
  buildDir = path.join(root, buildDirectory),
  command = ["npm", "run", "build"],
  inputs = BUILD_INPUTS,
  log = console.log,
}) {
  const release = await acquireLock(`${buildDir}.lock`, log);
  try {
    const print = fingerprint(root, inputs);
    if (upToDate(buildDir, print)) {
      log(`The build in ${path.relative(root, buildDir)}/ is up to date.`);
      return false;
    }
    log("The sources changed since the last build (or there is none): building.");
    await run(command, root);
    // Written last: a build that failed or was cut short leaves no fingerprint, so the next
    // start builds again.
    const recorded = path.join(buildDir, FINGERPRINT);
    writeFileSync(`${recorded}.partial`, `${print}\n`);
    renameSync(`${recorded}.partial`, recorded);
    return true;
  } finally {
    release();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  try {
    await buildIfNeeded({ root });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

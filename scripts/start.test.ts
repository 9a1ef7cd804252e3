import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildIfNeeded, fingerprint } from "./start.mjs";

/**
 * A stand-in for `react-router build` (the real one takes a minute): it empties the build folder
 * first as Vite does, takes a while, writes the server entry, and records each run. Two runs at
 * once would find each other's marker and fail, as two real builds broke each other's output.
 */
const FAKE_BUILD = `
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
const marker = "building";
writeFileSync(marker, String(process.pid), { flag: "wx" });
appendFileSync("builds.log", process.pid + "\\n");
rmSync("build", { recursive: true, force: true });
await new Promise((resolve) => setTimeout(resolve, 600));
mkdirSync("build/server", { recursive: true });
writeFileSync("build/server/index.js", "export const main = () => {};\\n");
rmSync(marker);
if (process.env.FAIL_BUILD) process.exit(1);
`;

let root: string;
const builds = () =>
  existsSync(path.join(root, "builds.log"))
    ? readFileSync(path.join(root, "builds.log"), "utf8").trim().split("\n").length
    : 0;
const quiet = () => {};
const options = () => ({
  root,
  buildDir: path.join(root, "build"),
  command: [process.execPath, "fake-build.mjs"],
  log: quiet,
});

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "start-"));
  mkdirSync(path.join(root, "app"));
  writeFileSync(path.join(root, "app", "root.tsx"), "export default 1;\n");
  writeFileSync(path.join(root, "app", "root.test.ts"), "// a test\n");
  writeFileSync(path.join(root, "package.json"), "{}\n");
  writeFileSync(path.join(root, "fake-build.mjs"), FAKE_BUILD);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("npm start builds only when the sources changed", () => {
  it("builds when there is no build, then not again while the sources stay as they were", async () => {
    expect(await buildIfNeeded(options())).toBe(true);
    expect(await buildIfNeeded(options())).toBe(false);
    expect(builds()).toBe(1);
    expect(existsSync(path.join(root, "build.lock"))).toBe(false);
  });

  it("builds again after a source changes, not after a test changes", async () => {
    await buildIfNeeded(options());
    writeFileSync(path.join(root, "app", "root.test.ts"), "// another test\n");
    expect(await buildIfNeeded(options())).toBe(false);
    writeFileSync(path.join(root, "app", "root.tsx"), "export default 2;\n");
    expect(await buildIfNeeded(options())).toBe(true);
    writeFileSync(path.join(root, "app", "new.ts"), "export {};\n");
    expect(await buildIfNeeded(options())).toBe(true);
    expect(builds()).toBe(3);
  });

  it("builds again when the last build failed or its output is gone", async () => {
    process.env.FAIL_BUILD = "1";
    try {
      await expect(buildIfNeeded(options())).rejects.toThrow();
    } finally {
      delete process.env.FAIL_BUILD;
    }
    expect(await buildIfNeeded(options())).toBe(true);
    rmSync(path.join(root, "build", "server", "index.js"));
    expect(await buildIfNeeded(options())).toBe(true);
    expect(builds()).toBe(3);
  });

  it("fingerprints contents, not timestamps", () => {
    const before = fingerprint(root);
    const now = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, "app", "root.tsx"), now, now);
    expect(fingerprint(root)).toBe(before);
  });

  it("fingerprints the environment the build reads: a build for tests is not served as production's", () => {
    const saved = process.env.NODE_ENV;
    const before = fingerprint(root);
    try {
      process.env.NODE_ENV = "development";
      expect(fingerprint(root)).not.toBe(before);
    } finally {
      process.env.NODE_ENV = saved;
    }
  });
});

/** `buildIfNeeded` in a process of its own, as a second `npm start` would run it. */
async function startInAProcess() {
  const script = `
    const { buildIfNeeded } = await import(${JSON.stringify(pathToFileURL(path.resolve(import.meta.dirname, "start.mjs")).href)});
    const built = await buildIfNeeded({
      root: ${JSON.stringify(root)},
      command: [process.execPath, "fake-build.mjs"],
      log: () => {},
    });
    console.log(built ? "built" : "up to date");
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: root });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stderr.on("data", (chunk) => (out += chunk));
  const [code] = await once(child, "exit");
  return { code, out: out.trim() };
}

describe("two starts of one checkout at once", () => {
  it("build once: the second waits for the first's build, then both go on to serve it", async () => {
    const starts = await Promise.all([startInAProcess(), startInAProcess()]);
    expect(starts.map((s) => s.code)).toEqual([0, 0]);
    expect(starts.map((s) => s.out).sort()).toEqual(["built", "up to date"]);
    expect(builds()).toBe(1);
    expect(readFileSync(path.join(root, "build", "server", "index.js"), "utf8")).toContain("main");
    expect(existsSync(path.join(root, "build.lock"))).toBe(false);
  });

  it("take over the lock of a start that died while building", async () => {
    const dead = spawn(process.execPath, ["-e", ""]);
    await once(dead, "exit");
    writeFileSync(
      path.join(root, "build.lock"),
      JSON.stringify({ pid: dead.pid, host: hostname(), token: "dead" }),
    );
    expect(await buildIfNeeded(options())).toBe(true);
    expect(existsSync(path.join(root, "build.lock"))).toBe(false);
  });

  it("take over a lock nobody has touched for a while, from any machine", async () => {
    const lock = path.join(root, "build.lock");
    writeFileSync(lock, JSON.stringify({ pid: 1, host: "elsewhere", token: "old" }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(await buildIfNeeded(options())).toBe(true);
  });

  it("wait for a live builder's lock", async () => {
    const lock = path.join(root, "build.lock");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: "live" }));
    const start = buildIfNeeded(options());
    let settled = false;
    void start.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(settled).toBe(false);
    expect(builds()).toBe(0);
    rmSync(lock);
    expect(await start).toBe(true);
  });
});

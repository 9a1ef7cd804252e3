import { spawn } from "node:child_process";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from "../tmpfs";

/**
 * The embedded database on a disk that fills up while the site writes (database/pglite-wal.ts):
 * every write is either stored or refused with PostgreSQL's "disk full" (53100), and the
 * database goes on answering. Without the write-ahead log's reserve, the first case (a 10 MB
 * upload with 12 MB free) ends in a PANIC while a new log segment is created, after which the
 * process never answers again (measured: still silent after 120 s).
 *
 * Each case runs in a process of its own (./disk-full-writer.mjs) on a tmpfs of its own, and is
 * killed after WRITER_DEADLINE_MS: a database that stops answering fails here, it cannot hang
 * the run.
 */
const MB = 1024 * 1024;
const TMPFS_BYTES = 256 * MB;
const WRITER_DEADLINE_MS = 90_000;
const root = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(root, "node_modules/.bin/node");
const WRITER = path.join(import.meta.dirname, "disk-full-writer.mjs");

type Report = { outcomes: Record<string, number>; answers: boolean; freeBytes: number };

const mounts: Tmpfs[] = [];
afterAll(() => {
  for (const mount of mounts) mount.unmount();
});

/** Runs the writer on a new tmpfs; its report, or why there is none. */
function runWriter(leftBytes: number, scenario: "file" | "small") {
  const mount = mountTmpfs(TMPFS_BYTES);
  mounts.push(mount);
  return new Promise<{ report: Report | null; output: string; ms: number }>((resolve) => {
    const started = performance.now();
    const child = spawn(NODE, [WRITER, mount.dir, String(leftBytes), scenario], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), WRITER_DEADLINE_MS);
    child.on("exit", () => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      const line = output
        .trim()
        .split("\n")
        .findLast((l) => l.startsWith('{"outcomes"'));
      resolve({ report: line ? (JSON.parse(line) as Report) : null, output, ms });
    });
  });
}

/** Every write stored or refused as a full disk, and the database still answering. */
function expectClean(result: Awaited<ReturnType<typeof runWriter>>, what: string) {
  const { report, output, ms } = result;
  expect(
    report,
    `${what}: no report within ${(ms / 1000).toFixed(0)} s (the database stopped answering?)\n${output.slice(-2000)}`,
  ).not.toBeNull();
  console.log(`${what}: ${JSON.stringify(report!.outcomes)}; answers: ${report!.answers}`);
  for (const outcome of Object.keys(report!.outcomes)) {
    expect(outcome, what).toMatch(/stored$|: 53100 ERROR$/);
  }
  expect(report!.answers, `${what}: the database answers after`).toBe(true);
}

if (tmpfsUnavailable("the embedded database's disk-full writes") === null) {
  describe("the embedded database on a disk that fills up while writing", () => {
    it("a 10 MB upload with 12 MB free, then 200 rows: stored or refused, never stopped", async () => {
      expectClean(await runWriter(12 * MB, "file"), "10 MB with 12 MB free");
    }, 120_000);

    it("a 10 MB upload with 4 MB free, then 200 rows: refused, and the database answers", async () => {
      const result = await runWriter(4 * MB, "file");
      expectClean(result, "10 MB with 4 MB free");
      expect(result.report!.outcomes["file: 53100 ERROR"]).toBe(1);
    }, 120_000);

    it("1,000 writes with 1 MB free: each stored or refused, and the database answers", async () => {
      const result = await runWriter(MB, "small");
      expectClean(result, "1,000 rows with 1 MB free");
      expect(result.report!.outcomes["row: 53100 ERROR"]).toBeGreaterThan(0);
    }, 120_000);
  });
}

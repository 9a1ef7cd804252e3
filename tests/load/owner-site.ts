import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

import { expect } from "vitest";

import {
  errorLines,
  findPostSlug,
  OWNER_PASSWORD,
  sleep,
  startServer,
  tail,
  type ServerProcess,
} from "./harness";
import { startProbe, type PathStats, type ProbeResult } from "./probe";

/**
 * What ./owner-actions.test.ts needs around one built server: signed in as the owner, a public
 * page in the page cache to probe, the CV stored when an action needs it, and a fresh server
 * when an action left the old one busy with work the test gave up on. Plus the measurement of
 * each action (./probe.ts) and its table.
 */

/** While any owner action runs, /healthz and a cached page answer within this (p99). */
export const PROBE_P99_MS = 100;
/** The server's resident memory stays under this (MiB) throughout. */
export const RSS_LIMIT_MB = 512;

export type Cv = { bytes: Buffer; hash: string; url: string };

export const cvOf = (bytes: Buffer): Cv => {
  const hash = createHash("sha256").update(bytes).digest("hex");
  return { bytes, hash, url: `/media/${hash}.pdf` };
};

/** Where a server of this site keeps its data: a fresh folder (PGlite), or one database. */
export type Storage = {
  name: string;
  /** The environment of a new server, and what to remove once it has stopped. */
  prepare(): { env: Record<string, string>; remove(): void };
};

export const pgliteStorage: Storage = {
  name: "PGlite",
  prepare() {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-owner-"));
    return {
      env: { DATA_DIR: dataDir },
      remove: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};

export const postgresStorage = (url: string): Storage => ({
  name: "PostgreSQL",
  prepare() {
    // PGlite is not used, but the server still keeps its lock and backups in a data folder.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-owner-"));
    return {
      // A new database has no posts unless seeded (PGlite's new data folder starts from the demo).
      env: { DATABASE_URL: url, DATA_DIR: dataDir, SEED_DEMO: "true" },
      remove: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
});

/** What one action did, and what was wrong with its outcome (apart from the probe's figures). */
export type ActionResult = { outcome: string; problems: string[]; gaveUp?: boolean };

export type Row = {
  action: string;
  outcome: string;
  ms: number;
  probe: ProbeResult;
  problems: string[];
};

/** CPU time (user + system, in clock ticks) a process has used, from /proc. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** Whether a process has child processes running (the share cards' drawing, say). */
function hasChildren(pid: number): boolean {
  return readdirSync(`/proc/${pid}/task`).some(
    (thread) => readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8").trim() !== "",
  );
}

/**
 * A process is at rest once it used under a tenth of a core, with no child process running,
 * for two looks in a row.
 */
const REST = { lookMs: 500, ticksPerLook: 5, looks: 2, timeoutMs: 60_000 };

/** Waits until the server is at rest (its start-up work done), or REST.timeoutMs. */
async function atRest(pid: number) {
  const started = performance.now();
  let quiet = 0;
  let last = cpuTicks(pid);
  while (quiet < REST.looks && performance.now() - started < REST.timeoutMs) {
    await sleep(REST.lookMs);
    const now = cpuTicks(pid);
    // The cards are drawn in a child process, which may take longer than two looks while the
    // server waits for its answer; storing them then drops the probed post from the cache.
    quiet = now - last < REST.ticksPerLook && !hasChildren(pid) ? quiet + 1 : 0;
    last = now;
  }
}

export class OwnerSite {
  server: ServerProcess | null = null;
  cookie = "";
  /** The public page probed: a blog post, rendered once and then answered by the page cache. */
  pagePath = "";
  /** Set when an action gave up on the server's answer: the next one gets a fresh server. */
  dirty = false;
  readonly rows: Row[] = [];
  private remove: (() => void) | null = null;

  constructor(
    readonly storage: Storage,
    readonly port: number,
  ) {}

  get base() {
    return this.server!.base;
  }

  /** A server ready for the next action: the running one, or a fresh one. */
  async ready(): Promise<ServerProcess> {
    if (this.server && !this.dirty && this.server.child.exitCode === null) return this.server;
    if (this.server) console.log(`${this.storage.name}: a fresh server for the next action`);
    await this.close();
    const { env, remove } = this.storage.prepare();
    this.remove = remove;
    try {
      this.server = await startServer(this.port, env);
      await this.signIn();
      this.pagePath = `/blog/${await findPostSlug(this.base)}`;
      // A new server draws its pages' share cards first (a child process, seconds of CPU on a
      // seeded site): the actions are measured on a server at rest, as an owner meets it.
      await atRest(this.server.child.pid!);
      await this.warm();
    } catch (error) {
      // Half ready is not ready: the next action starts again from nothing.
      this.dirty = true;
      await this.close();
      throw error;
    }
    this.dirty = false;
    return this.server;
  }

  /** Renders the probed page until the page cache answers it. */
  async warm() {
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${this.base}${this.pagePath}`);
      await response.arrayBuffer();
      if (response.headers.get("x-page-cache") === "hit") return;
    }
    throw new Error(`${this.pagePath} is not answered from the page cache`);
  }

  private async signIn() {
    const response = await fetch(`${this.base}/login`, {
      method: "POST",
      body: new URLSearchParams({ password: OWNER_PASSWORD, redirectTo: "/" }),
      redirect: "manual",
    });
    await response.arrayBuffer();
    const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]!);
    if (response.status !== 302 || !cookies.some((c) => c.startsWith("session="))) {
      throw new Error(`sign-in answered ${response.status}: ${cookies.join("; ")}`);
    }
    this.cookie = cookies.join("; ");
  }

  /** Posts a form as the signed-in owner; resolves to the status and the body's text. */
  async post(pathname: string, body: FormData | URLSearchParams, signal: AbortSignal) {
    const response = await fetch(`${this.base}${pathname}`, {
      method: "POST",
      body,
      headers: { cookie: this.cookie },
      signal,
    });
    return { status: response.status, text: await response.text() };
  }

  /** Whether the server has this file (a revalidation: 304 without reading its bytes). */
  async has(cv: Cv) {
    const response = await fetch(`${this.base}${cv.url}`, {
      headers: { "if-none-match": `"${cv.hash}"` },
    });
    await response.arrayBuffer();
    return response.status === 304;
  }

  /** Stores the CV as the owner does, when the server does not have it yet (not measured). */
  async ensureCv(cv: Cv) {
    if (await this.has(cv)) return;
    const answer = await this.post(
      "/admin/profile/cv.data",
      cvForm(cv),
      AbortSignal.timeout(90_000),
    );
    if (answer.status !== 200) throw new Error(`the CV upload answered ${answer.status}`);
  }

  /**
   * Runs one owner action while the probe watches, prints its row, and asserts the bounds: probe
   * p99 and no probe error on both URLs, peak RSS, and whatever the action found wrong.
   */
  async measure(action: string, run: () => Promise<ActionResult>) {
    const server = await this.ready();
    const probe = startProbe({
      base: server.base,
      paths: ["/healthz", this.pagePath],
      pid: server.child.pid!,
    });
    await sleep(300);
    const errorsBefore = errorLines(server).length;
    const started = performance.now();
    let result: ActionResult;
    try {
      result = await run();
    } catch (error) {
      result = { outcome: `threw ${(error as Error).message}`, problems: [], gaveUp: true };
      result.problems.push(result.outcome);
    }
    const ms = performance.now() - started;
    await sleep(300);
    const figures = await probe.stop();
    if (result.gaveUp) this.dirty = true;

    const problems = [...result.problems];
    for (const stats of figures.paths) {
      if (!(stats.p99 <= PROBE_P99_MS)) {
        problems.push(`${stats.path}: p99 ${Math.round(stats.p99)} ms > ${PROBE_P99_MS} ms`);
      }
      if (stats.errors.length > 0) {
        problems.push(
          `${stats.path}: ${stats.errors.length} probe errors (${[...new Set(stats.errors)].slice(0, 3).join("; ")})`,
        );
      }
    }
    if (!(figures.rss.peakMb < RSS_LIMIT_MB)) {
      problems.push(`peak RSS ${Math.round(figures.rss.peakMb)} MB >= ${RSS_LIMIT_MB} MB`);
    }
    const logged = errorLines(server).slice(errorsBefore);
    if (logged.length > 0) {
      problems.push(`the server logged ${logged.length} errors, the first: ${brief(logged[0]!)}`);
    }
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      problems.push(`the server exited (${server.child.exitCode ?? server.child.signalCode})`);
      this.dirty = true;
    }
    const row: Row = { action, outcome: result.outcome, ms, probe: figures, problems };
    this.rows.push(row);
    console.log(`${this.storage.name}: ${action}\n${table([row])}`);
    const output = tail(server, 5).split("\n").map(brief).join("\n");
    expect(problems, `${action} (${this.storage.name}); server output:\n${output}`).toEqual([]);
  }

  /** Stops the server (at once when it was left busy) and removes its data. */
  async close() {
    if (this.server) {
      if (this.dirty) await this.server.kill();
      else await this.server.stop();
    }
    this.server = null;
    this.remove?.();
    this.remove = null;
  }
}

/** A log line cut short: the event and the error, without the stack. */
function brief(line: string) {
  try {
    const { event, error } = JSON.parse(line) as { event?: string; error?: string };
    if (event) return `${event}${error ? `: ${error.slice(0, 200)}` : ""}`;
  } catch {
    // not one of the server's JSON lines
  }
  return line.slice(0, 200);
}

export function cvForm(cv: Cv) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("file", new Blob([new Uint8Array(cv.bytes)], { type: "application/pdf" }), "cv.pdf");
  return form;
}

/** The `message` of a form's answer as React Router sends it to the browser (`.data`). */
export function messageOf(text: string) {
  const quoted = /"message","((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  return quoted === undefined ? null : (JSON.parse(`"${quoted}"`) as string);
}

export type Download = {
  status: number;
  bytes: number;
  sha256: string;
  ms: number;
  error?: string;
};

/**
 * One client's GET on a connection of its own, reading the body as it arrives, and hashing it
 * when `hash` (SHA-256, hex; "" otherwise).
 */
export function download(url: string, signal: AbortSignal, hash: boolean): Promise<Download> {
  return new Promise((resolve) => {
    const started = performance.now();
    const digest = hash ? createHash("sha256") : null;
    let bytes = 0;
    let status = 0;
    let finished = false;
    const done = (error?: string) => {
      if (finished) return;
      finished = true;
      const sha256 = digest?.digest("hex") ?? "";
      resolve({ status, bytes, sha256, ms: performance.now() - started, error });
    };
    const request = http.get(url, { agent: false, signal }, (response) => {
      status = response.statusCode ?? 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        digest?.update(chunk);
      });
      response.on("end", () => done());
      response.on("error", (error) => done(error.message));
    });
    request.on("error", (error) => done(error.message));
  });
}

const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)}` : "-");
const stats = (s: PathStats) => {
  const hits = s.cache.hit ?? 0;
  const cached = Object.keys(s.cache).length > 0 ? ` hit ${hits}/${s.requests}` : "";
  return `${ms(s.p50)}/${ms(s.p99)}/${ms(s.max)} (${s.requests} req${cached})`;
};

/** The rows as a table: the action, its outcome and time, each probed URL, peak memory. */
export function table(rows: Row[]) {
  const lines = rows.map((row) => [
    row.action,
    row.outcome,
    `${(row.ms / 1000).toFixed(1)} s`,
    ...row.probe.paths.map(stats),
    `${Math.round(row.probe.rss.firstMb)} → ${Math.round(row.probe.rss.peakMb)} MB`,
    row.problems.length === 0 ? "ok" : `FAIL (${row.problems.length})`,
  ]);
  const header = [
    "action",
    "outcome",
    "time",
    "/healthz p50/p99/max ms",
    "cached page p50/p99/max ms",
    "RSS start → peak",
    "",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const format = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
  const problems = rows.flatMap((row) => row.problems.map((p) => `  ${row.action}: ${p}`));
  return [
    format(header),
    widths.map((w) => "-".repeat(w)).join("-|-"),
    ...lines.map(format),
    ...problems,
  ].join("\n");
}

/** Writes a table to .test-output/owner-actions-<name>.txt, beside the reports `npm test` leaves. */
export function report(name: string, rows: Row[]) {
  const dir = path.resolve(import.meta.dirname, "../../.test-output");
  mkdirSync(dir, { recursive: true });
  const text = `Owner actions (${name}), ${new Date().toISOString()}\n${table(rows)}\n`;
  writeFileSync(path.join(dir, `owner-actions-${name.toLowerCase()}.txt`), text);
  console.log(text);
}

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";
import { inject } from "vitest";

import { NODE_ENV_SETTINGS, NODE_FLAGS } from "../../server/node-flags.mjs";

/** Node 24 from the `node` devDependency, never the system's. */
export const NODE = path.resolve(import.meta.dirname, "../../node_modules/.bin/node");

/** PostgreSQL tests run when this is set (CI sets it; scripts/test.mjs forbids skips there). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export const OWNER_PASSWORD = "load-test-owner-password";

/** Settings a developer's shell or CI might export that would change what a test starts. */
const INHERITED_SETTINGS = [
  "DATABASE_URL",
  "DATA_DIR",
  "PORT",
  "HOST",
  "SITE_URL",
  "SMTP_URL",
  "RESEND_API_KEY",
  "SEED_DEMO",
  "PAGE_CACHE",
  "PAGE_CACHE_MB",
  "CONTACT_RATE_LIMIT",
  "NEWSLETTER_RATE",
  "OWNER_PASSWORD",
  "PAGE_CACHE_HEADER",
  "MEDIA_CACHE_MB",
];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type ServerProcess = {
  base: string;
  child: ChildProcess;
  /** Everything the server printed so far (stdout and stderr interleaved). */
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL after 20 s, which yields null). */
  stop(): Promise<number | null>;
  /** SIGKILL at once (a server still busy with work the test gave up on), then its exit. */
  kill(): Promise<void>;
};

/** Starts the built production server (`node server.js`) and waits for `/healthz` to answer 200. */
export async function startServer(port: number, env: Record<string, string>) {
  const inherited = { ...process.env };
  for (const name of INHERITED_SETTINGS) delete inherited[name];
  const child = spawn(NODE, [...NODE_FLAGS, "server.js"], {
    // A copy of the build made for this layer (./global-setup.ts).
    cwd: inject("serverRoot"),
    env: {
      ...inherited,
      ...NODE_ENV_SETTINGS,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      OWNER_PASSWORD,
      // The tests read how the page cache answered; production does not say.
      PAGE_CACHE_HEADER: "true",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const server: ServerProcess = {
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const code = await exited;
      clearTimeout(killer);
      return code;
    },
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
  try {
    await waitForHealth(server);
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}; its output:\n${output}`, { cause: error });
  }
  return server;
}

async function waitForHealth(server: ServerProcess) {
  // A new PGlite data directory takes up to ~7 s (initdb) on a busy machine.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error("the server exited during start-up");
    try {
      if ((await fetch(`${server.base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error("the server did not answer /healthz with 200 within 60 s");
}

/** The last lines of a server's output, for assertion messages. */
export function tail(server: ServerProcess, lines = 40) {
  return server.output().trimEnd().split("\n").slice(-lines).join("\n");
}

/** Log lines the server wrote at level "error" (app/lib/log.server.ts writes JSON lines). */
export function errorLines(server: ServerProcess) {
  return server
    .output()
    .split("\n")
    .filter((line) => line.includes('"level":"error"'));
}

/**
 * The most this runtime and machine can do for a page, probed beside the site in the same run:
 * bench/run-reference-server.mjs (plain node:http, fixed buffers, its own process) sending the
 * bytes the site sent for each path, to a client that asks for no encoding (as ./probe.ts does).
 * A tail latency measured on a shared machine moves with the machine; this shows by how much.
 */
export async function startReferenceServer(port: number, site: string, paths: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "reference-"));
  const manifest = await Promise.all(
    paths.map(async (page, i) => {
      const answer = await new Promise<{ body: Buffer; headers: Record<string, string> }>(
        (resolve, reject) =>
          http
            .get(`${site}${page}`, (res) => {
              const chunks: Buffer[] = [];
              res.on("data", (chunk: Buffer) => chunks.push(chunk));
              res.on("end", () => {
                const headers: Record<string, string> = {};
                for (const [name, value] of Object.entries(res.headers)) {
                  if (!HOP_HEADERS.has(name) && value !== undefined) headers[name] = String(value);
                }
                resolve({ body: Buffer.concat(chunks), headers });
              });
            })
            .on("error", reject),
      );
      const file = path.join(dir, `page-${i}`);
      writeFileSync(file, answer.body);
      return { path: page, file, headers: answer.headers };
    }),
  );
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  const script = path.resolve(import.meta.dirname, "../../bench/run-reference-server.mjs");
  const child = spawn(NODE, [script, path.join(dir, "manifest.json"), String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the reference server exited (${code})`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
/** Headers of one connection or one answer, not of the page. */
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "date",
  "content-length",
]);

/** The slug of a post listed on /blog (the demo content seeds several). */
export async function findPostSlug(base: string): Promise<string> {
  const html = await (await fetch(`${base}/blog`)).text();
  const slug = /href="\/blog\/(?!tags"|new")([a-z0-9-]+)"/.exec(html)?.[1];
  if (!slug) throw new Error(`/blog lists no post:\n${html.slice(0, 500)}`);
  return slug;
}

export type PostgresDatabase = {
  /** postgres:// URL of the new database. */
  url: string;
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
};

/** A new, empty database on the TEST_DATABASE_URL server; the server's start-up migrates it. */
export async function freshPostgres(prefix: string): Promise<PostgresDatabase> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    query: async <T>(sql: string, values?: unknown[]) => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query(sql, values)).rows as T[];
      } finally {
        await client.end();
      }
    },
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Percentile of already sorted numbers (nearest rank). */
export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

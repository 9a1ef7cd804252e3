import { spawn, type ChildProcess } from "node:child_process";

import pg from "pg";

import { E2E_OWNER_PASSWORD } from "../../playwright.config";

/**
 * Starts its own production server (not the shared one) so it can be stopped and broken; from
 * the build with the test-only routes unless `env` sets TEST_ROUTES to "" (the real one).
 */
export function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", TEST_ROUTES: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

export async function waitForHealth(base: string, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error("the server exited during start-up");
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not become healthy");
}

/**
 * Waits until the server has printed a line matching `pattern`, and returns the match. A line
 * printed before /healthz answered can still arrive after that answer: the pipe and the socket
 * are read in whatever order the event loop takes them.
 */
export async function waitForOutput(
  server: { child: ChildProcess; output(): string },
  pattern: RegExp,
  timeoutMs = 10_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = server.output().match(pattern);
    if (match) return match;
    if (Date.now() > deadline || server.child.exitCode !== null) {
      throw new Error(`the server never printed ${pattern}; it printed:\n${server.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A new, empty database on the TEST_DATABASE_URL server, for servers a test starts itself (their
 * start-up migrates it); `drop` removes it.
 */
export async function freshDatabase(
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}

/**
 * A production server of its own on `port`, on a database a test made (freshDatabase), with the
 * end-to-end owner password; resolves once it answers /healthz.
 */
export async function serveOn(port: number, databaseUrl: string, env: Record<string, string> = {}) {
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    SITE_URL: base,
    SEED_DEMO: "false",
    OWNER_PASSWORD: E2E_OWNER_PASSWORD,
    ...env,
  });
  await waitForHealth(base, server.child);
  return { base, server };
}

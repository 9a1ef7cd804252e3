import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { expect, test } from "@playwright/test";

/** Starts its own production server (not the shared one) so it can be stopped and broken. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(base: string, child: ChildProcess) {
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

test.describe("the production server process", () => {
  test.describe.configure({ mode: "serial", timeout: 90_000 });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-e2e-"));
  test.afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("on SIGTERM it finishes the request in flight, stops accepting, closes the database and exits 0", async () => {
    const port = 3221;
    const base = `http://127.0.0.1:${port}`;
    const server = startServer({
      PORT: String(port),
      DATA_DIR: dataDir,
      ENABLE_TEST_ROUTES: "true",
    });
    await waitForHealth(base, server.child);

    let finishedAt = 0;
    const inFlight = fetch(`${base}/__test/slow?ms=3000`).then(async (r) => {
      const result = { status: r.status, body: await r.text() };
      finishedAt = Date.now();
      return result;
    });
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill("SIGTERM");
    // New connections are refused while the slow request is still running.
    const fresh = () =>
      fetch(`${base}/healthz`, { headers: { connection: "close" } }).then(
        () => "accepted",
        () => "refused",
      );
    await expect.poll(fresh, { timeout: 2000, intervals: [50] }).toBe("refused");
    const refusedAt = Date.now();

    expect(await inFlight).toEqual({ status: 200, body: "slept 3000 ms" });
    expect(finishedAt).toBeGreaterThan(refusedAt);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("SIGTERM received");

    // The embedded database was closed cleanly: it opens again with its rows, and is not re-seeded.
    const again = startServer({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(base, again.child);
    const home = await (await fetch(`${base}/`)).text();
    expect(home).toContain("Senior Backend Developer at Liffey Systems");
    expect(again.output()).not.toContain("Seeded the demo content");
    again.child.kill("SIGINT");
    expect(await again.exited).toBe(0);
  });

  test("test-only pages answer 404 when ENABLE_TEST_ROUTES is not set", async () => {
    const port = 3222;
    const base = `http://127.0.0.1:${port}`;
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(base, server.child);
    for (const route of ["/__test/toast", "/__test/error", "/__test/slow?ms=10"]) {
      expect((await fetch(`${base}${route}`)).status, route).toBe(404);
    }
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  test("a wrong setting stops start-up with a message naming the variable", async () => {
    const server = startServer({
      PORT: "eighty",
      DATABASE_URL: "mysql://x@y/z",
      DATA_DIR: dataDir,
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT: expected a port number (got "eighty")');
    expect(server.output()).toContain("DATABASE_URL: expected a postgres:// or postgresql:// URL");
  });

  test("with SEED_DEMO=false an empty database stays empty", async () => {
    const port = 3223;
    const base = `http://127.0.0.1:${port}`;
    const emptyDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-e2e-empty-"));
    const server = startServer({ PORT: String(port), DATA_DIR: emptyDir, SEED_DEMO: "false" });
    try {
      await waitForHealth(base, server.child);
      const html = await (await fetch(`${base}/`)).text();
      expect(html).toContain("Experience");
      expect(html).not.toContain("Liffey Systems");
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });
});

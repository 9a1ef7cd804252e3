import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

import { expect, test } from "@playwright/test";

import { templatePath } from "../../database/pglite-template.mjs";
import { TEST_BUILD_DIRECTORY } from "../../server/build-directory.mjs";
import { startServer, waitForHealth, waitForOutput } from "./processes";

/**
 * The cluster's system identifier: the first 8 bytes of global/pg_control. initdb draws a new
 * one every time, so two clusters share it only when one is a copy of the other.
 */
function systemIdentifier(pgControl: Buffer) {
  return pgControl.subarray(0, 8).toString("hex");
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

  test("the production build has no test-only pages: each answers 404", async () => {
    const port = 3222;
    const base = `http://127.0.0.1:${port}`;
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir, TEST_ROUTES: "" });
    await waitForHealth(base, server.child);
    for (const route of ["/__test/toast", "/__test/error", "/__test/slow?ms=10"]) {
      expect((await fetch(`${base}${route}`)).status, route).toBe(404);
    }
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  test("sign-in: after 5 failures from one address the 6th attempt gets 429, even with the right password", async () => {
    const port = 3224;
    const base = `http://127.0.0.1:${port}`;
    const throttleDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-e2e-throttle-"));
    const server = startServer({
      PORT: String(port),
      DATA_DIR: throttleDir,
      OWNER_PASSWORD: "right-password",
    });
    try {
      await waitForHealth(base, server.child);
      const attempt = (password: string) =>
        fetch(`${base}/login`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ password, redirectTo: "/" }),
          redirect: "manual",
        });
      for (let i = 1; i <= 5; i++) {
        const response = await attempt(`wrong-${i}`);
        expect(response.status, `attempt ${i}`).toBe(401);
        expect(await response.text()).toContain("That password is not right.");
      }
      const sixth = await attempt("right-password");
      expect(sixth.status).toBe(429);
      expect(sixth.headers.get("retry-after")).toBe("3600");
      expect(sixth.headers.get("set-cookie")).toBeNull();
      expect(await sixth.text()).toContain(
        "Too many failed attempts from your address. Try again in an hour.",
      );
      await waitForOutput(server, /"event":"sign-in-throttled"/);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(throttleDir, { recursive: true, force: true });
    }
  });

  test("without OWNER_PASSWORD a first start prints a generated password once, and it works", async () => {
    const port = 3225;
    const base = `http://127.0.0.1:${port}`;
    const freshDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-e2e-owner-"));
    const env = { PORT: String(port), DATA_DIR: freshDir, OWNER_PASSWORD: "" };
    try {
      const first = startServer(env);
      await waitForHealth(base, first.child);
      const [, generated] = await waitForOutput(
        first,
        /Owner password \(shown once, stored only as a hash\): (\S+)/,
      );
      expect(generated).toMatch(/^[\w-]{24}$/);
      const password = generated!;
      const signInWith = (password: string) =>
        fetch(`${base}/login`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ password, redirectTo: "/blog" }),
          redirect: "manual",
        });
      const signIn = await signInWith(password);
      expect(signIn.status).toBe(302);
      expect(signIn.headers.get("location")).toBe("/blog");
      expect(signIn.headers.get("set-cookie")).toMatch(
        /^session=.+; Max-Age=2592000; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/,
      );
      first.child.kill("SIGTERM");
      await first.exited;

      const second = startServer(env);
      await waitForHealth(base, second.child);
      // A sign-in waits for the start-up's password step, and its log line follows that step's
      // output on the same pipe: once it has arrived, a password would have been printed.
      expect((await signInWith(password)).status).toBe(302);
      await waitForOutput(second, /"event":"sign-in"/);
      expect(second.output()).not.toContain("Owner password");
      second.child.kill("SIGTERM");
      await second.exited;
    } finally {
      rmSync(freshDir, { recursive: true, force: true });
    }
  });

  test("npm run owner:password reads the password from standard input, never from the command line, and refuses while the server holds the database", async () => {
    const port = 3226;
    const base = `http://127.0.0.1:${port}`;
    const dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-e2e-setpw-"));
    const env = { ...process.env, NODE_ENV: "production", DATA_DIR: dir, OWNER_PASSWORD: "" };
    const script = (args: string[], input?: string) =>
      spawnSync(process.execPath, ["scripts/owner-password.mjs", ...args], {
        env,
        encoding: "utf8",
        input,
      });
    const signsIn = async (password: string) =>
      (
        await fetch(`${base}/login`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ password, redirectTo: "/" }),
          redirect: "manual",
        })
      ).status === 302;
    try {
      const running = startServer({ PORT: String(port), DATA_DIR: dir, OWNER_PASSWORD: "" });
      await waitForHealth(base, running.child);
      const refused = script([], "brand-new-password\n");
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain("is in use by process");
      running.child.kill("SIGTERM");
      await running.exited;

      // On the command line it would show in `ps` and the shell's history: refused, unread.
      const argument = script(["argument-password"]);
      expect(argument.status).toBe(1);
      expect(argument.stderr).toContain("Do not put the password on the command line");
      // Too short, and nothing piped in: refused with a message.
      expect(script([], "short\n").stderr).toContain("at least 8 characters");
      expect(script([], "").stderr).toContain("No password on standard input");

      const done = script([], "brand-new-password\nignored second line\n");
      expect(done.status, done.stderr).toBe(0);
      expect(done.stdout).toContain("The owner password is set. Every session was signed out.");
      expect(done.stdout + done.stderr).not.toContain("brand-new-password");

      const again = startServer({ PORT: String(port), DATA_DIR: dir, OWNER_PASSWORD: "" });
      await waitForHealth(base, again.child);
      expect(await signsIn("brand-new-password")).toBe(true);
      expect(await signsIn("argument-password")).toBe(false);
      again.child.kill("SIGTERM");
      await again.exited;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("npm run owner:password prompts at a terminal without echoing, twice", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-e2e-setpw-tty-"));
    const env = { ...process.env, NODE_ENV: "production", DATA_DIR: dir, OWNER_PASSWORD: "" };
    /** The script under `script(1)`, which gives it a pseudo-terminal; answers each prompt. */
    async function atTerminal(answers: string[]) {
      const child = spawn(
        "script",
        ["-qec", `${process.execPath} scripts/owner-password.mjs`, "/dev/null"],
        { env, stdio: ["pipe", "pipe", "pipe"] },
      );
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      const prompts = [/New owner password: $/, /Repeat it: $/];
      for (const [i, answer] of answers.entries()) {
        await expect.poll(() => prompts[i]!.test(output), { timeout: 20_000 }).toBe(true);
        // Typed after the prompt, as a person would: the terminal is in raw mode by then.
        child.stdin.write(`${answer}\r`);
      }
      const code = await exited;
      child.stdin.destroy();
      return { code, output };
    }
    try {
      const mismatch = await atTerminal(["typed-password-1", "typed-password-2"]);
      expect(mismatch.code).toBe(1);
      expect(mismatch.output).toContain("The two passwords differ. Nothing was changed.");

      const typed = await atTerminal(["typed-password-1", "typed-password-1"]);
      expect(typed.code, typed.output).toBe(0);
      expect(typed.output).toContain("The owner password is set.");
      // Neither prompt echoed what was typed.
      expect(typed.output).not.toContain("typed-password");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("npm run backup and restore bring a site back whole; a damaged file changes nothing; BACKUP_DIR keeps a backup a day", async () => {
    const port = 3227;
    const base = `http://127.0.0.1:${port}`;
    const work = mkdtempSync(path.join(os.tmpdir(), "portfolio-e2e-backup-"));
    const [site, restored, untouched, daily] = ["site", "restored", "untouched", "daily"].map(
      (name) => path.join(work, name),
    ) as [string, string, string, string];
    const node = (script: string, dataDir: string, args: string[]) =>
      spawnSync(process.execPath, [script, ...args], {
        env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, OWNER_PASSWORD: "" },
        encoding: "utf8",
      });
    const titles = async () =>
      [...(await (await fetch(`${base}/blog`)).text()).matchAll(/<h2[^>]*>([^<]+)<\/h2>/g)].map(
        (m) => m[1],
      );
    try {
      // Three old daily backups; the server writes today's and keeps the newest two.
      mkdirSync(daily);
      for (const day of ["2026-01-01", "2026-01-02", "2026-01-03"]) {
        writeFileSync(path.join(daily, `backup-${day}T03-00-00Z.jsonl.gz`), "old");
      }
      const server = startServer({
        PORT: String(port),
        DATA_DIR: site,
        SEED_DEMO: "true",
        BACKUP_DIR: daily,
        BACKUP_KEEP: "2",
      });
      await waitForHealth(base, server.child);
      await waitForOutput(server, /"event":"backup-written"/);
      const kept = readdirSync(daily).sort();
      expect(kept).toHaveLength(2);
      expect(kept[0]).toBe("backup-2026-01-03T03-00-00Z.jsonl.gz");
      expect(kept[1]).toMatch(/^backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.jsonl\.gz$/);
      const before = await titles();
      expect(before.length).toBeGreaterThan(0);
      server.child.kill("SIGTERM");
      await server.exited;

      const file = path.join(work, "site.jsonl.gz");
      const backup = node("scripts/backup.mjs", site, [file]);
      expect(backup.status, backup.stderr).toBe(0);
      const checksum = /Checksum of the rows \(SHA-256\): ([0-9a-f]{64})/.exec(backup.stdout)?.[1];
      expect(checksum, backup.stdout).toBeDefined();

      const restore = node("scripts/restore.mjs", restored, [file]);
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stdout).toContain(`Checksum of the restored rows (SHA-256): ${checksum}`);
      // The daily one restores too.
      const fromDaily = node("scripts/restore.mjs", path.join(work, "from-daily"), [
        path.join(daily, kept[1]!),
      ]);
      expect(fromDaily.status, fromDaily.stderr).toBe(0);

      // Damaged: refused before anything is opened; a second restore: refused, unchanged.
      const damaged = path.join(work, "damaged.jsonl.gz");
      writeFileSync(damaged, readFileSync(file).subarray(0, 200));
      const refused = node("scripts/restore.mjs", untouched, [damaged]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain("is not a complete backup");
      expect(refused.stderr).toContain("Nothing was changed.");
      expect(existsSync(untouched)).toBe(false);
      const again = node("scripts/restore.mjs", restored, [file]);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain("restore into a new or emptied database");

      const back = startServer({ PORT: String(port), DATA_DIR: restored, OWNER_PASSWORD: "" });
      await waitForHealth(base, back.child);
      expect(await titles()).toEqual(before);
      back.child.kill("SIGTERM");
      await back.exited;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
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

  test("with SEED_DEMO=false an empty database stays empty; the new DATA_DIR starts as a copy of the build's initialised cluster, not from initdb; it and BACKUP_DIR are the server's user's alone", async () => {
    const port = 3223;
    const base = `http://127.0.0.1:${port}`;
    const emptyDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-e2e-empty-"));
    const backupDir = path.join(emptyDir, "..", `${path.basename(emptyDir)}-backups`);
    const server = startServer({
      PORT: String(port),
      DATA_DIR: emptyDir,
      SEED_DEMO: "false",
      BACKUP_DIR: backupDir,
    });
    try {
      await waitForHealth(base, server.child);
      // Private at rest: every folder 0700, every file 0600, the template's copies included,
      // and the backup written at start too.
      await expect
        .poll(() => readdirSync(backupDir).filter((f) => f.endsWith(".jsonl.gz")))
        .toHaveLength(1);
      const loose: string[] = [];
      const walk = (at: string) => {
        const stat = lstatSync(at);
        if (stat.isSymbolicLink()) return;
        const want = stat.isDirectory() ? 0o700 : 0o600;
        if ((stat.mode & 0o777) !== want) loose.push(`${at} ${(stat.mode & 0o777).toString(8)}`);
        if (stat.isDirectory()) for (const name of readdirSync(at)) walk(path.join(at, name));
      };
      walk(emptyDir);
      walk(backupDir);
      expect(loose).toEqual([]);
      const html = await (await fetch(`${base}/`)).text();
      expect(html).toContain("Experience");
      expect(html).not.toContain("Liffey Systems");
      // startServer runs the build with the test-only routes, which carries its own template.
      const template = templatePath(path.resolve(TEST_BUILD_DIRECTORY));
      expect(systemIdentifier(readFileSync(path.join(emptyDir, "global/pg_control")))).toBe(
        systemIdentifier(readFileSync(path.join(template, "global/pg_control"))),
      );
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(emptyDir, { recursive: true, force: true });
      rmSync(backupDir, { recursive: true, force: true });
    }
  });
});

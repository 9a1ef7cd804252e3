import { once } from "node:events";
import type { AddressInfo } from "node:net";

import { expect, test } from "@playwright/test";
import pg from "pg";
import { SMTPServer } from "smtp-server";

import { startServer, waitForHealth } from "./processes";

/**
 * The contact outbox across processes, on PostgreSQL: several servers share one database and
 * deliver each message once; a server killed mid-burst loses no message it answered for.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

test.describe("contact delivery across server processes (PostgreSQL)", () => {
  test.skip(!TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: these tests need PostgreSQL");
  test.describe.configure({ mode: "serial", timeout: 180_000 });

  let databaseUrl = "";
  let name = "";
  let smtp: SMTPServer;
  let smtpUrl = "";
  const received: string[] = [];

  test.beforeAll(async () => {
    name = `delivery_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        let raw = "";
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
        stream.on("end", () => {
          received.push(raw.match(/^Subject: New message from (.+?)\r?$/m)?.[1] ?? "?");
          callback();
        });
      },
    });
    smtp.listen(0, "127.0.0.1");
    await once(smtp.server, "listening");
    smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  });

  test.afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  const query = async <T>(sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  };

  const submit = (port: number, sender: string) =>
    fetch(`http://127.0.0.1:${port}/api/contact`, {
      method: "POST",
      body: new URLSearchParams({
        name: sender,
        email: "load@example.com",
        message: `From ${sender}`,
      }),
    });

  test("two servers sharing the database deliver 200 messages, each exactly once", async () => {
    const env = {
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtpUrl,
      CONTACT_RATE_LIMIT: "0",
      OWNER_EMAIL: "owner@example.com",
    };
    const a = startServer({ ...env, PORT: "3231" });
    const b = startServer({ ...env, PORT: "3232" });
    try {
      await waitForHealth("http://127.0.0.1:3231", a.child);
      await waitForHealth("http://127.0.0.1:3232", b.child);
      const senders = Array.from({ length: 200 }, (_, i) => `Sender ${i + 1}`);
      // 20 at a time, alternating between the two servers.
      for (let i = 0; i < senders.length; i += 20) {
        const batch = senders.slice(i, i + 20).map((s, j) => submit(j % 2 ? 3232 : 3231, s));
        for (const response of await Promise.all(batch)) expect(response.status).toBe(200);
      }
      await expect
        .poll(
          async () =>
            (
              await query<{ n: number }>(
                "select count(*)::int as n from contact_messages where status = 'delivered'",
              )
            )[0]!.n,
          {
            timeout: 60_000,
          },
        )
        .toBe(200);
      // Each message reached the SMTP server once: 200 deliveries, 200 different senders.
      await new Promise((r) => setTimeout(r, 1000));
      expect(received).toHaveLength(200);
      expect(new Set(received).size).toBe(200);
    } finally {
      a.child.kill("SIGTERM");
      b.child.kill("SIGTERM");
      await Promise.all([a.exited, b.exited]);
    }
  });

  test("a server killed with SIGKILL mid-burst loses no answered message; a restart delivers them", async () => {
    await query("delete from contact_messages");
    received.length = 0;
    // Delivery off in the first life, so every stored message waits for the restart.
    const env = { DATABASE_URL: databaseUrl, CONTACT_RATE_LIMIT: "0", PORT: "3233" };
    const server = startServer(env);
    await waitForHealth("http://127.0.0.1:3233", server.child);
    const answered: string[] = [];
    const burst = Array.from({ length: 200 }, (_, i) => `Burst ${i + 1}`).map(async (sender, i) => {
      await new Promise((r) => setTimeout(r, i * 5));
      try {
        const response = await submit(3233, sender);
        if (response.status === 200) answered.push(sender);
      } catch {
        // the process is gone: no answer, no promise made
      }
    });
    // Kill it mid-burst: once some answers are in, while others are still on the way.
    while (answered.length < 30) await new Promise((r) => setTimeout(r, 5));
    server.child.kill("SIGKILL");
    await Promise.all(burst);
    await server.exited;
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(200);

    const stored = await query<{ name: string }>("select name from contact_messages");
    const storedNames = new Set(stored.map((r) => r.name));
    for (const sender of answered) expect(storedNames.has(sender), sender).toBe(true);
    console.log(`SIGKILL mid-burst: ${answered.length} of 200 answered, ${stored.length} stored`);

    const restarted = startServer({ ...env, SMTP_URL: smtpUrl, OWNER_EMAIL: "owner@example.com" });
    try {
      await waitForHealth("http://127.0.0.1:3233", restarted.child);
      await expect
        .poll(
          async () =>
            (
              await query<{ n: number }>(
                "select count(*)::int as n from contact_messages where status <> 'delivered'",
              )
            )[0]!.n,
          {
            timeout: 60_000,
          },
        )
        .toBe(0);
      for (const sender of answered) expect(received, sender).toContain(sender);
    } finally {
      restarted.child.kill("SIGTERM");
      await restarted.exited;
    }
  });
});

import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { CONTACT_RATE_LIMIT } from "../../app/features/contact/message";
import { parseEnv } from "../../app/lib/env.server";
import { mailTransportFrom } from "../../app/features/contact/mail.server";
import {
  claimDueMessages,
  listMessages,
  markAttemptFailed,
  RETRY,
  retryMessage,
  submitContact,
} from "../../app/features/contact/outbox.server";
import { contactMessages } from "../../database/schema";
import { startDeliveryWorker } from "../../server/delivery";
import { drivers, skipReason, type TestDatabase } from "./databases";

const message = (over: Partial<Parameters<typeof submitContact>[1]> = {}) => ({
  name: "Ana",
  email: "ana@example.com",
  message: "Hola",
  clientAddress: "10.0.0.1",
  spam: false,
  ...over,
});

/** A real SMTP server on loopback that records what it receives, and can refuse. */
async function smtpPeer() {
  const received: { from: string; to: string[]; raw: string }[] = [];
  let refuse = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      stream.on("end", () => {
        if (refuse) return callback(new Error("451 try again later"));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    setRefusing: (value: boolean) => (refuse = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`contact messages on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await database.dispose();
    });

    it("messages sent all at once from one address cannot all slip under the limit", async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          submitContact(database.db, message({ message: `Parallel message number ${n}` }), 5),
        ),
      );
      expect(outcomes.filter((o) => o === "stored")).toHaveLength(5);
      expect(outcomes.filter((o) => o === "limited")).toHaveLength(7);
    });

    it("stores messages, marks honeypot ones as spam, and limits an address to 5 in 10 minutes", async () => {
      for (let i = 0; i < CONTACT_RATE_LIMIT.messages - 1; i++) {
        expect(await submitContact(database.db, message())).toBe("stored");
      }
      expect(await submitContact(database.db, message({ spam: true }))).toBe("stored");
      expect(await submitContact(database.db, message())).toBe("limited");
      expect(await submitContact(database.db, message({ clientAddress: "10.0.0.9" }))).toBe(
        "stored",
      );
      const rows = await listMessages(database.db);
      expect(rows).toHaveLength(6);
      expect(rows.filter((r) => r.status === "spam")).toHaveLength(1);
      await database.db
        .update(contactMessages)
        .set({ createdAt: sql`now() - interval '11 minutes'` });
      expect(await submitContact(database.db, message())).toBe("stored");
    });

    it("claims each due message once, never spam, and retries with backoff until it gives up", async () => {
      await submitContact(database.db, message());
      await submitContact(database.db, message({ spam: true }));
      const [first, second] = await Promise.all([
        claimDueMessages(database.db),
        claimDueMessages(database.db),
      ]);
      expect([...first!, ...second!].map((m) => m.status)).toEqual(["pending"]);
      const claimed = [...first!, ...second!][0]!;
      expect(claimed.attempts).toBe(1);
      expect(await claimDueMessages(database.db)).toEqual([]); // held by the claim

      await markAttemptFailed(database.db, claimed, "connection refused");
      const [afterFailure] = await database.db
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.id, claimed.id));
      expect(afterFailure).toMatchObject({
        status: "pending",
        lastError: "connection refused",
        lockedUntil: null,
      });
      expect(afterFailure!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(50_000);
      expect(await claimDueMessages(database.db)).toEqual([]); // not due yet

      await database.db
        .update(contactMessages)
        .set({ attempts: RETRY.maxAttempts - 1, nextAttemptAt: new Date() });
      const [last] = await claimDueMessages(database.db);
      await markAttemptFailed(database.db, last!, "still refused");
      const [gaveUp] = await database.db
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.id, claimed.id));
      expect(gaveUp!.status).toBe("failed");

      expect(await retryMessage(database.db, claimed.id)).toBe(true);
      const [again] = await claimDueMessages(database.db);
      expect(again).toMatchObject({ id: claimed.id, attempts: 1 });
    });

    it("delivers through a real SMTP server, and retries while it refuses", async () => {
      vi.spyOn(console, "log").mockImplementation(() => {});
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const smtp = await smtpPeer();
      const env = parseEnv({ SMTP_URL: smtp.url });
      const worker = startDeliveryWorker(
        database.db,
        mailTransportFrom(env),
        { fixed: "owner@example.com" },
        "site@example.com",
      );
      try {
        smtp.setRefusing(true);
        await submitContact(
          database.db,
          message({ message: "Hi & <script>alert(1)</script>\nbye" }),
        );
        worker.wake();
        await until(
          async () =>
            (await listMessages(database.db))[0]!.attempts === 1 && errors.mock.calls.length > 0,
        );
        const [waiting] = await listMessages(database.db);
        expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
        expect(waiting!.lastError).toMatch(/try again later/);
        expect(smtp.received).toEqual([]);

        // The server is back; the retry comes due.
        smtp.setRefusing(false);
        await database.db.update(contactMessages).set({ nextAttemptAt: new Date() });
        worker.wake();
        await until(async () => (await listMessages(database.db))[0]!.status === "delivered");
        expect(smtp.received).toHaveLength(1);
        const mail = smtp.received[0]!;
        expect(mail.to).toEqual(["owner@example.com"]);
        expect(mail.from).toBe("site@example.com");
        expect(mail.raw).toMatch(/^Subject: New message from Ana\r?$/m);
        expect(mail.raw).toMatch(/^Reply-To: ana@example.com\r?$/m);
        const unfolded = mail.raw.replace(/=\r?\n/g, "");
        // The HTML part is escaped; the plain-text part carries the message as written.
        const htmlPart = unfolded.slice(unfolded.indexOf("Content-Type: text/html"));
        expect(htmlPart).toContain("Hi &amp; &lt;script&gt;alert(1)&lt;/script&gt;<br>bye");
        expect(htmlPart).not.toContain("<script>");
        const textPart = unfolded.slice(
          unfolded.indexOf("Content-Type: text/plain"),
          unfolded.indexOf("Content-Type: text/html"),
        );
        expect(textPart).toContain("Hi & <script>alert(1)</script>");
        const [delivered] = await listMessages(database.db);
        expect(delivered!.deliveredAt).toBeInstanceOf(Date);
      } finally {
        await worker.stop();
        await smtp.close();
      }
    });

    it("stopping the worker waits for the e-mail it is sending", async () => {
      vi.spyOn(console, "log").mockImplementation(() => {});
      let finishSend!: () => void;
      const sending = new Promise<void>((resolve) => (finishSend = resolve));
      let started!: () => void;
      const startedSending = new Promise<void>((resolve) => (started = resolve));
      const slow = {
        name: "smtp" as const,
        send: async () => {
          started();
          await sending;
        },
      };
      const worker = startDeliveryWorker(
        database.db,
        slow,
        { fixed: "owner@example.com" },
        "site@example.com",
      );
      await submitContact(database.db, message());
      worker.wake();
      await startedSending;
      let stopped = false;
      const stopping = worker.stop().then(() => (stopped = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(stopped).toBe(false);
      finishSend();
      await stopping;
      expect((await listMessages(database.db))[0]!.status).toBe("delivered");
    });

    it("delivers through the Resend API with the key, an idempotency key and the JSON", async () => {
      vi.spyOn(console, "log").mockImplementation(() => {});
      const requests: { headers: Record<string, string | string[] | undefined>; body: string }[] =
        [];
      const api: Server = createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
          requests.push({ headers: req.headers, body });
          const authorized = req.headers.authorization === "Bearer re_test_key";
          res.writeHead(authorized ? 200 : 401, { "content-type": "application/json" });
          res.end(authorized ? '{"id":"email_1"}' : '{"error":"unauthorized"}');
        });
      });
      api.listen(0, "127.0.0.1");
      await once(api, "listening");
      const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/emails`;
      const env = parseEnv({ RESEND_API_KEY: "re_test_key", RESEND_API_URL: url });
      const worker = startDeliveryWorker(
        database.db,
        mailTransportFrom(env),
        { fixed: "owner@example.com" },
        "site@example.com",
      );
      try {
        await submitContact(
          database.db,
          message({ name: "Bob", email: "bob@example.com", message: "a < b" }),
        );
        worker.wake();
        await until(async () => (await listMessages(database.db))[0]!.status === "delivered");
        const [stored] = await listMessages(database.db);
        expect(requests).toHaveLength(1);
        expect(requests[0]!.headers["idempotency-key"]).toBe(`contact-message-${stored!.id}`);
        expect(requests[0]!.headers["content-type"]).toBe("application/json");
        expect(JSON.parse(requests[0]!.body)).toEqual({
          from: "site@example.com",
          to: ["owner@example.com"],
          reply_to: "bob@example.com",
          subject: "New message from Bob",
          html: "<p><strong>From:</strong> Bob &lt;bob@example.com&gt;</p><p>a &lt; b</p>",
          text: "From: Bob <bob@example.com>\n\na < b\n",
        });
      } finally {
        await worker.stop();
        await new Promise((r) => api.close(r));
      }
    });
  });
}

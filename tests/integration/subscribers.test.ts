import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  confirmLink,
  confirmUrl,
  CONFIRM_LINK_VALID_MS,
  handleSubscribe,
  subscriberSecret,
  unsubscribeLink,
  unsubscribeUrl,
} from "../../app/features/subscribers/index.server";
import { SUBSCRIBE_TEXT } from "../../app/features/subscribers";
import { jobs, subscribers } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";
import {
  contextFor,
  formPost,
  linkIn,
  runConfirmJobs,
  SITE_URL,
  smtpPeer,
} from "./subscriber-fixtures";

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`subscriptions on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
      vi.spyOn(console, "log").mockImplementation(() => {});
      vi.spyOn(console, "warn").mockImplementation(() => {});
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await database.dispose();
    });

    const subscribe = (email: string, client = "10.0.0.1", rateLimit = 5) =>
      handleSubscribe(formPost("/subscribe", { email }), contextFor(database, client, rateLimit));
    const rowOf = async (email: string) =>
      (await database.db.select().from(subscribers).where(eq(subscribers.email, email)))[0];
    const page = (url: string, method: "GET" | "POST", body?: string) =>
      new Request(url, {
        method,
        body,
        headers: body ? { "Content-Type": "application/x-www-form-urlencoded" } : undefined,
      });

    it("mails a confirmation link; the link's page confirms only when its button is pressed", async () => {
      const smtp = await smtpPeer();
      try {
        const answer = await subscribe("  Ana@Example.COM ");
        expect(answer.status).toBe(200);
        expect(await rowOf("ana@example.com")).toMatchObject({
          status: "pending",
          source: "form",
          clientAddress: "10.0.0.1",
        });
        // The mail is a job of the queue, sent by the worker, not by the request.
        expect(smtp.received).toEqual([]);
        const outcomes = await runConfirmJobs(database, smtp.url);
        expect(outcomes).toMatchObject([{ ok: true, summary: { sent: true } }]);
        expect(smtp.received).toHaveLength(1);
        expect(smtp.received[0]!.to).toEqual(["ana@example.com"]);
        expect(smtp.received[0]!.raw).toMatch(/^Subject: Confirm your subscription\r?$/m);
        const link = linkIn(smtp.received[0]!.raw);

        // A mail scanner's GET changes nothing.
        const context = contextFor(database);
        expect(await confirmLink(page(link, "GET"), context, false)).toEqual({
          state: "ready",
          status: 200,
        });
        expect((await rowOf("ana@example.com"))!.status).toBe("pending");
        expect(await confirmLink(page(link, "POST"), context, true)).toEqual({
          state: "done",
          status: 200,
        });
        const row = await rowOf("ana@example.com");
        expect(row!.status).toBe("confirmed");
        expect(row!.confirmedAt).toBeInstanceOf(Date);
        // Followed again: done, nothing changes.
        expect((await confirmLink(page(link, "GET"), context, false)).state).toBe("done");
      } finally {
        await smtp.close();
      }
    });

    it("answers alike for new, pending, confirmed and unsubscribed addresses", async () => {
      await database.db.insert(subscribers).values([
        { email: "pending@example.com", status: "pending", confirmationSentAt: new Date() },
        { email: "confirmed@example.com", status: "confirmed", confirmedAt: new Date() },
        { email: "gone@example.com", status: "unsubscribed", unsubscribedAt: new Date() },
      ]);
      const answers = [];
      for (const email of ["new", "pending", "confirmed", "gone"]) {
        answers.push(await subscribe(`${email}@example.com`, `10.0.1.${answers.length}`));
      }
      expect(answers[0]).toEqual({
        status: 200,
        body: { ok: true, title: SUBSCRIBE_TEXT.doneTitle, message: SUBSCRIBE_TEXT.done },
      });
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      // Behind the one answer: the new and the unsubscribed address get a mail, the others none.
      expect((await rowOf("new@example.com"))!.status).toBe("pending");
      expect((await rowOf("gone@example.com"))!.status).toBe("pending");
      expect((await rowOf("confirmed@example.com"))!.status).toBe("confirmed");
      const queued = await database.db.select({ payload: jobs.payload }).from(jobs);
      const ids = queued.map((j) => (j.payload as { id: number }).id).sort();
      const expected = [
        (await rowOf("new@example.com"))!.id,
        (await rowOf("gone@example.com"))!.id,
      ];
      expect(ids).toEqual(expected.sort());
    });

    it("an unconfirmed address stays pending and is sent nothing more than its confirmation", async () => {
      const smtp = await smtpPeer();
      try {
        await subscribe("bo@example.com");
        await runConfirmJobs(database, smtp.url);
        // Asked again at once: the same answer, no second mail within CONFIRM_RESEND_MS.
        expect((await subscribe("bo@example.com", "10.0.0.2")).status).toBe(200);
        expect(await runConfirmJobs(database, smtp.url)).toEqual([]);
        expect(smtp.received).toHaveLength(1);
        expect((await rowOf("bo@example.com"))!.status).toBe("pending");
        // Later, asking again sends a new link.
        await database.db
          .update(subscribers)
          .set({ confirmationSentAt: sql`now() - interval '11 minutes'` });
        await subscribe("bo@example.com", "10.0.0.3");
        await runConfirmJobs(database, smtp.url);
        expect(smtp.received).toHaveLength(2);
      } finally {
        await smtp.close();
      }
    });

    it("refuses an expired or forged link with a clear page, and changes nothing", async () => {
      await subscribe("cy@example.com");
      const row = (await rowOf("cy@example.com"))!;
      const secret = await subscriberSecret(database.db);
      const context = contextFor(database);
      const old = confirmUrl(SITE_URL, secret, row, Date.now() - CONFIRM_LINK_VALID_MS - 60_000);
      for (const confirm of [false, true]) {
        expect(await confirmLink(page(old, "POST"), context, confirm)).toEqual({
          state: "expired",
          status: 410,
        });
      }
      const good = new URL(confirmUrl(SITE_URL, secret, row));
      const forged = [
        `${good.origin}${good.pathname}?s=${row.id}&e=${good.searchParams.get("e")}&t=forged`,
        `${good.href.replace(`s=${row.id}`, `s=${row.id + 1}`)}`,
        `${good.href.replace(/e=\d+/, "e=99999999999")}`,
        `${good.origin}${good.pathname}`,
      ];
      for (const url of forged) {
        expect(await confirmLink(page(url, "POST"), context, true)).toEqual({
          state: "invalid",
          status: 400,
        });
      }
      // An unsubscribe link is no confirmation link.
      const leave = unsubscribeUrl(SITE_URL, secret, row).replace(
        "/unsubscribe",
        "/subscribe/confirm",
      );
      expect((await confirmLink(page(leave, "POST"), context, true)).state).toBe("invalid");
      expect((await rowOf("cy@example.com"))!.status).toBe("pending");
    });

    it("limits each client, counting every request whatever its address", async () => {
      await database.db
        .insert(subscribers)
        .values({ email: "in@example.com", status: "confirmed" });
      // A subscribed address uses the limit up as a new one does: the limit reveals nothing.
      for (let i = 0; i < 5; i++) {
        const email = i % 2 === 0 ? "in@example.com" : `n${i}@example.com`;
        expect((await subscribe(email, "10.0.0.7")).status).toBe(200);
      }
      const limited = await subscribe("other@example.com", "10.0.0.7");
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe(SUBSCRIBE_TEXT.limited);
      expect(limited.headers).toEqual({ "Retry-After": "600" });
      expect(await rowOf("other@example.com")).toBeUndefined();
      expect((await subscribe("other@example.com", "10.0.0.8")).status).toBe(200);
      // Requests at once from one client cannot all slip under the limit.
      const parallel = await Promise.all(
        Array.from({ length: 8 }, (_, n) => subscribe(`p${n}@example.com`, "10.0.0.9")),
      );
      expect(parallel.filter((a) => a.status === 200)).toHaveLength(5);
      expect(parallel.filter((a) => a.status === 429)).toHaveLength(3);
    });

    it("refuses what is no address, and a filled honeypot stores nothing", async () => {
      expect((await subscribe("not an address")).status).toBe(400);
      expect((await subscribe(`${"a".repeat(320)}@example.com`)).status).toBe(400);
      const bot = await handleSubscribe(
        formPost("/subscribe", { email: "bot@example.com", homepage: "http://spam" }),
        contextFor(database),
      );
      expect(bot.status).toBe(200);
      expect(await database.db.select().from(subscribers)).toEqual([]);
    });

    it("unsubscribes by one-click POST or the footer page's button; a GET changes nothing", async () => {
      await database.db.insert(subscribers).values([
        { email: "a@example.com", status: "confirmed" },
        { email: "b@example.com", status: "confirmed" },
      ]);
      const secret = await subscriberSecret(database.db);
      const context = contextFor(database);
      const [a, b] = [(await rowOf("a@example.com"))!, (await rowOf("b@example.com"))!];

      // RFC 8058: the mail client's POST, no cookie, no token: the signature is the authority.
      const oneClick = page(
        unsubscribeUrl(SITE_URL, secret, a),
        "POST",
        "List-Unsubscribe=One-Click",
      );
      expect(await unsubscribeLink(oneClick, context, true)).toEqual({
        state: "done",
        status: 200,
      });
      expect(await rowOf("a@example.com")).toMatchObject({ status: "unsubscribed" });

      const footer = unsubscribeUrl(SITE_URL, secret, b);
      expect(await unsubscribeLink(page(footer, "GET"), context, false)).toEqual({
        state: "ready",
        status: 200,
      });
      expect((await rowOf("b@example.com"))!.status).toBe("confirmed");
      const forged = footer.replace(/t=[^&]+/, "t=forged");
      expect((await unsubscribeLink(page(forged, "POST"), context, true)).state).toBe("invalid");
      expect((await rowOf("b@example.com"))!.status).toBe("confirmed");
      expect((await unsubscribeLink(page(footer, "POST"), context, true)).state).toBe("done");
      const left = await rowOf("b@example.com");
      expect(left).toMatchObject({ status: "unsubscribed" });
      expect(left!.unsubscribedAt).toBeInstanceOf(Date);
    });

    it("a confirmation asked for before unsubscribing or removal is never sent", async () => {
      const smtp = await smtpPeer();
      try {
        await subscribe("late@example.com");
        await database.db.update(subscribers).set({ status: "unsubscribed" });
        expect(await runConfirmJobs(database, smtp.url)).toMatchObject([
          { ok: true, summary: { sent: false } },
        ]);
        expect(smtp.received).toEqual([]);
      } finally {
        await smtp.close();
      }
    });

    it("with no mail transport the job is kept and retried, not lost", async () => {
      await subscribe("wait@example.com");
      expect(await runConfirmJobs(database, null)).toMatchObject([{ ok: false, outcome: "retry" }]);
      const [kept] = await database.db.select().from(jobs);
      expect(kept).toMatchObject({ status: "pending", attempts: 1 });
      expect(kept!.lastError).toMatch(/Mail delivery is off/);
      // Once a transport is there and the retry is due, the mail goes.
      const smtp = await smtpPeer();
      try {
        await database.db.update(jobs).set({ runAt: sql`now()` });
        expect(await runConfirmJobs(database, smtp.url)).toMatchObject([{ ok: true }]);
        expect(smtp.received).toHaveLength(1);
        expect(await database.db.select().from(jobs)).toEqual([]);
      } finally {
        await smtp.close();
      }
    });
  });
}

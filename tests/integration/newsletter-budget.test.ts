import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { mailTransportFrom } from "../../app/features/contact/mail.server";
import { createPost } from "../../app/features/posts/write.server";
import {
  claimSends,
  expandNewsletter,
  releaseSends,
  takeBudget,
} from "../../app/features/subscribers/newsletter.server";
import { parseEnv } from "../../app/lib/env.server";
import { startNewsletterWorker } from "../../server/newsletter";
import { drivers, queryRows, skipReason, type TestDatabase } from "./databases";
import { smtpPeer } from "./mail-peer";

const SITE = { url: "https://blog.example.dev", name: "Alex Byrne", from: "alex@example.dev" };

/** A published post (sent to nobody by itself) and `count` confirmed subscribers queued for it. */
async function queued(db: TestDatabase["db"], count: number) {
  await db.execute(sql`
    insert into subscribers (email, status)
    select 'reader' || n || '@example.com', 'confirmed' from generate_series(1, ${count}) n`);
  const post = await createPost(db, {
    title: "Paced",
    description: "",
    content: "<p>Paced</p>",
    slug: null,
    tags: null,
    publish: { mode: "now" },
  });
  expect(await expandNewsletter(db, post.id)).toBe(count);
  // Repeating the job adds nobody twice.
  expect(await expandNewsletter(db, post.id)).toBe(0);
  return post;
}

const setBudget = (db: TestDatabase["db"], tokens: number, secondsAgo: number) =>
  db.execute(sql`update newsletter_budget set tokens = ${tokens},
    refilled_at = now() - make_interval(secs => ${secondsAgo})`);

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the newsletter's pace on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("the budget grants what the rate has filled, up to one second's worth, shared by all takers", async () => {
      const db = database.db;
      // 600 a minute: 10 a second, at most 10 at once.
      // Empty: nothing until the next whole message has filled (60 a minute: within a second).
      await setBudget(db, 0, 0);
      const empty = await takeBudget(db, 20, 60);
      expect(empty.granted).toBe(0);
      expect(empty.waitMs).toBeGreaterThan(0);
      expect(empty.waitMs).toBeLessThanOrEqual(1000);
      await setBudget(db, 0, 0.55);
      expect((await takeBudget(db, 20, 600)).granted).toBe(5);
      await setBudget(db, 0, 3600);
      const [a, b, c] = await Promise.all([
        takeBudget(db, 6, 600),
        takeBudget(db, 6, 600),
        takeBudget(db, 6, 600),
      ]);
      expect(a!.granted + b!.granted + c!.granted).toBe(10);
      // 60 a minute: one at a time, a second apart.
      await setBudget(db, 0, 3600);
      expect((await takeBudget(db, 20, 60)).granted).toBe(1);
      expect((await takeBudget(db, 20, 60)).granted).toBe(0);
    });

    it("concurrent claims never share a row, and released rows are claimable at once", async () => {
      await queued(database.db, 30);
      const claims = await Promise.all([1, 2, 3].map(() => claimSends(database.db, 12)));
      const ids = claims.flat().map((c) => c.id);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      expect(await claimSends(database.db, 12)).toEqual([]);
      // A stopping worker gives back what it will not send: claimable at once, attempt uncounted.
      await releaseSends(database.db, claims[0]!);
      const again = await claimSends(database.db, 30);
      expect(again.map((c) => c.id)).toEqual(claims[0]!.map((c) => c.id));
      expect(again.map((c) => c.attempts)).toEqual(claims[0]!.map(() => 1));
    });

    it("two workers together keep a low rate, and send each mail once", async () => {
      const peer = await smtpPeer();
      const transport = mailTransportFrom(parseEnv({ SMTP_URL: peer.url }));
      await queued(database.db, 25);
      await setBudget(database.db, 0, 3600);
      const started = Date.now();
      // 600 a minute with a burst of 10: 25 mails take at least 1.5 seconds, however many send.
      const workers = [1, 2].map(() =>
        startNewsletterWorker(database.db, transport, { site: SITE, perMinute: 600 }),
      );
      try {
        const deadline = Date.now() + 20_000;
        while (peer.received.length < 25 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
        }
        const elapsed = Date.now() - started;
        expect(peer.received).toHaveLength(25);
        expect(elapsed).toBeGreaterThanOrEqual(1400);
        const ids = new Set(peer.received.map((m) => m.headers.get("message-id")));
        expect(ids.size).toBe(25);
        // The peer has a mail once its data is in, a moment before the worker reads the peer's
        // answer and marks the row sent: each row is marked, after that moment.
        await vi.waitFor(
          async () => {
            const [row] = await queryRows<{ sent: number }>(
              database.db,
              sql`select count(*)::int as sent from newsletter_sends where status = 'sent'`,
            );
            expect(row!.sent).toBe(25);
          },
          { timeout: 5000, interval: 20 },
        );
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await peer.close();
      }
    });
  });
}

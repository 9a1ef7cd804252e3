import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { SECOND_MS } from "../../app/lib/format";
import { JOB_RETRY } from "../../app/lib/jobs.server";
import { CDN_PURGE } from "../../app/lib/limits";
import { openDatabase, type DatabaseHandle } from "../../database/db.server";
import { jobs } from "../../database/schema";
import { startJobWorker, type JobWorker } from "../../server/jobs";
import { PAGE_CACHE_CHANNEL } from "../../server/page-cache/link";
import {
  CDN_PURGE_JOB,
  CDN_PURGE_KIND,
  cdnPurgeOnChange,
  configureCdnPurge,
  purgeTargetsOf,
  verifyPurge,
} from "../../server/page-cache/purge";
import { appRouteRecords } from "../app-routes";
import {
  drivers,
  freshPglite,
  freshPostgresUrl,
  MIGRATIONS,
  queryRows,
  skipReason,
  type Driver,
} from "./databases";

const SECRET = "the-purge-secret-of-this-test";
const SITE = "https://example.com";

type Received = { body: string; valid: boolean };

/** A CDN's purge endpoint on loopback: records each POST, answering `statuses` in turn, then 200. */
async function startReceiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const header = (name: string) => (req.headers[name] as string | undefined) ?? null;
      received.push({
        body,
        valid: verifyPurge(
          body,
          { timestamp: header("x-purge-timestamp"), signature: header("x-signature") },
          SECRET,
        ),
      });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/purge`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Two instances of the site on one database: two connections on PostgreSQL, PGlite's one twice. */
async function twoInstances(driver: Driver) {
  if (driver.name === "pglite") {
    const one = await freshPglite();
    return { instances: [one, one] as DatabaseHandle[], dispose: () => one.dispose() };
  }
  const { url, drop } = await freshPostgresUrl();
  const first = await openDatabase({ databaseUrl: url, dataDir: "" });
  await first.migrate(MIGRATIONS);
  const second = await openDatabase({ databaseUrl: url, dataDir: "" });
  return {
    instances: [first, second],
    dispose: async () => {
      await first.close();
      await second.close();
      await drop();
    },
  };
}

const until = async (done: () => boolean | Promise<boolean>, what: string) => {
  const deadline = Date.now() + 10 * SECOND_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the CDN purge on ${driver.name}`, () => {
    let setup: Awaited<ReturnType<typeof twoInstances>>;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const closers: (() => Promise<void>)[] = [];
    const workers: JobWorker[] = [];

    beforeEach(async () => {
      setup = await twoInstances(driver);
      vi.spyOn(console, "log").mockImplementation(() => {});
      vi.spyOn(console, "error").mockImplementation(() => {});
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      for (const close of closers.splice(0)) await close();
      await receiver.close();
      configureCdnPurge(null);
      vi.restoreAllMocks();
      await setup.dispose();
    });

    /** Each instance follows the change notices and runs the purge jobs, as server/app.ts does. */
    const start = async (statuses: number[] = []) => {
      receiver = await startReceiver(statuses);
      configureCdnPurge({
        url: receiver.url,
        secret: SECRET,
        siteUrl: SITE,
        targets: purgeTargetsOf(appRouteRecords()),
      });
      for (const instance of setup.instances) {
        const worker = startJobWorker(instance.db, [CDN_PURGE_JOB]);
        workers.push(worker);
        const sub = await instance.listen(
          PAGE_CACHE_CHANNEL,
          cdnPurgeOnChange(instance.db, worker.wake),
          () => {},
        );
        closers.push(() => sub.close());
      }
    };
    const db = () => setup.instances[0]!.db;
    const purgeJobs = () => db().select().from(jobs).where(eq(jobs.kind, CDN_PURGE_KIND));
    const newPost = async (title: string) => {
      const [row] = await queryRows<{ id: number; slug: string }>(
        db(),
        sql`insert into blog_posts (title, content) values (${title}, '<p>x</p>') returning id, slug`,
      );
      return row!;
    };

    it("sends a change's URLs once, signed, from one job though every instance heard it", async () => {
      await start();
      const post = await newPost("Purged at once");
      // Within the purge's wait: its URLs are read when it is sent.
      await db().execute(
        sql`insert into post_tags (post_id, tag, position) values (${post.id}, 'go', 0)`,
      );
      await until(async () => (await purgeJobs()).length === 1, "the purge job");
      await until(() => receiver.received.length === 1, "the purge request");
      // Both instances' workers had time to send a second one.
      await new Promise((resolve) => setTimeout(resolve, 2 * CDN_PURGE.delayMs));
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.valid).toBe(true);
      const { urls } = JSON.parse(receiver.received[0]!.body) as { urls: string[] };
      expect(urls).toContain(`${SITE}/blog/${post.slug}`);
      expect(urls).toContain(`${SITE}/blog`);
      expect(urls).toContain(`${SITE}/rss.xml`);
      expect(urls).toContain(`${SITE}/sitemap.xml`);
      expect(urls).toContain(`${SITE}/blog/tags/go`);
      expect(urls).toContain(`${SITE}/blog/tags/go/rss.xml`);
      expect(urls).not.toContain(`${SITE}/`);
      expect(await purgeJobs()).toEqual([]);
    });

    it("sends everything for what every page shows", async () => {
      await start();
      await db().execute(sql`select pg_notify('page_cache', 'site')`);
      await until(() => receiver.received.length === 1, "the purge request");
      expect(JSON.parse(receiver.received[0]!.body)).toEqual({ all: true });
    });

    it("retries a purge the CDN refused, with the queue's backoff", async () => {
      await start([500]);
      await newPost("Refused once");
      await until(() => receiver.received.length === 1, "the first attempt");
      await until(async () => (await purgeJobs())[0]?.lastError !== null, "the failure");
      const [failed] = await purgeJobs();
      expect(failed!.attempts).toBe(1);
      expect(failed!.lastError).toContain("500");
      const [due] = await queryRows<{ ms: number | string }>(
        db(),
        sql`select extract(epoch from run_at - now()) * 1000 as ms from jobs where id = ${failed!.id}`,
      );
      expect(Number(due!.ms)).toBeGreaterThan(JOB_RETRY.firstDelayMs - 5 * SECOND_MS);
      // The retry's time comes: the same URLs go again, and the job is done.
      await db().execute(sql`update jobs set run_at = now() where id = ${failed!.id}`);
      workers[0]!.wake();
      await until(() => receiver.received.length === 2, "the retry");
      expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
      await until(async () => (await purgeJobs()).length === 0, "the job's end");
    });
  });
}

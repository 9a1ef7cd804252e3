// The inboxes on the site's job queue (docs/decisions/048-inbox-on-the-job-queue.md): a signed
// POST is answered 202 once its activity is a `social.inbox` job, without the listener's remote
// fetches; the job does the work on the worker, is retried with the queue's backoff when it
// fails (and by nothing else), and runs once however many instances take the activity.
import { eq, sql } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  blockActor,
  DELIVER_JOB,
  INBOX_JOB,
  SOCIAL_JOBS,
} from "../../app/features/social/index.server";
import { parseEnv } from "../../app/lib/env.server";
import { JOB_RETRY } from "../../app/lib/jobs.server";
import { setOutgoingFetchPolicy } from "../../app/lib/safe-fetch.server";
import { jobs, socialFollowers } from "../../database/schema";
import { createHttpApp } from "../../server/http";
import { startJobWorker } from "../../server/jobs";
import { appRouteManifest } from "../app-routes";
import { runDueJobs } from "./run-jobs";
import { drivers, skipReason, type TestDatabase } from "./databases";
import { startPeer, type Peer } from "./federation-peer";

const SITE = "http://localhost:3000";
const ACTOR = `${SITE}/ap/users/owner`;
const PEER_PORT = 4601;

/** Runs the due jobs of `kinds` until none is left; how many ran. */
const runJobs = async (db: TestDatabase["db"], kinds: string[]) =>
  (await runDueJobs(db, SOCIAL_JOBS, kinds)).length;

let peer: Peer;
beforeAll(async () => {
  setOutgoingFetchPolicy({ allowPrivate: true });
  peer = await startPeer(PEER_PORT);
});
afterAll(async () => {
  setOutgoingFetchPolicy({ allowPrivate: false });
  await peer.close();
});

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the inbox's job queue on ${driver.name}`, () => {
    let database: TestDatabase;
    const instance = (wakeJobs?: () => void) =>
      createHttpApp({
        env: parseEnv({ SITE_URL: SITE, FETCH_ALLOW_PRIVATE: "true" }),
        database,
        wakeJobs,
        loadBuild: async () => ({ routes: appRouteManifest() }) as unknown as ServerBuild,
      });
    beforeEach(async () => {
      database = await driver.fresh();
      peer.received.length = 0;
      peer.answers.status = 202;
      peer.answers.actor = 200;
    });
    afterEach(() => database.dispose());

    const post = async (app: ReturnType<typeof instance>, activity: unknown) =>
      app.request(await peer.signed(`${SITE}/ap/inbox`, activity));
    const follow = () => ({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: peer.id("follow"),
      type: "Follow",
      actor: peer.actorId,
      object: ACTOR,
    });
    const kinds = async () =>
      (await database.db.select({ kind: jobs.kind }).from(jobs).orderBy(jobs.id)).map(
        (j) => j.kind,
      );

    it("answers 202 with the activity queued while the sender's actor cannot be fetched; the failed job is retried with the queue's backoff, then stores the follower and queues the Accept", async () => {
      const app = instance();
      // A first activity: the sender's key is fetched (the signature) and kept.
      const like = { ...follow(), id: peer.id("like"), type: "Like", object: `${SITE}/nothing` };
      expect((await post(app, like)).status).toBe(202);
      expect(await runJobs(database.db, [INBOX_JOB])).toBe(1);

      // The actor's server fails now: the inbox answers all the same, the work waits.
      peer.answers.actor = 503;
      const answer = await post(app, follow());
      expect(answer.status).toBe(202);
      expect(await kinds()).toEqual([INBOX_JOB]);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);

      await runJobs(database.db, [INBOX_JOB]);
      const [failed] = await database.db.select().from(jobs);
      expect(failed).toMatchObject({ kind: INBOX_JOB, status: "pending", attempts: 1 });
      expect(failed!.lastError).toContain("503");
      // The queue's backoff (JOB_RETRY: a minute first), and no retry of Fedify's own beside it.
      const [due] = await database.db
        .select({ inMs: sql<number>`extract(epoch from ${jobs.runAt} - now()) * 1000` })
        .from(jobs);
      expect(Number(due!.inMs)).toBeGreaterThan(JOB_RETRY.firstDelayMs - 10_000);
      expect(Number(due!.inMs)).toBeLessThanOrEqual(JOB_RETRY.firstDelayMs);
      expect(await kinds()).toEqual([INBOX_JOB]);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);

      // The server is back and the minute has passed.
      peer.answers.actor = 200;
      await database.db.update(jobs).set({ runAt: sql`now()` });
      await runJobs(database.db, [INBOX_JOB]);
      expect((await database.db.select().from(socialFollowers)).map((f) => f.actorUrl)).toEqual([
        peer.actorId,
      ]);
      expect(await kinds()).toEqual([DELIVER_JOB]);
      await runJobs(database.db, [DELIVER_JOB]);
      expect(peer.received.map((r) => r.body.type)).toEqual(["Accept"]);
    });

    it("wakes the job worker at once: the Accept is sent without waiting for the worker's poll", async () => {
      const worker = startJobWorker(database.db, SOCIAL_JOBS);
      try {
        await worker.settled();
        const app = instance(worker.wake);
        const started = Date.now();
        expect((await post(app, follow())).status).toBe(202);
        await worker.settled();
        expect(peer.received.map((r) => r.body.type)).toEqual(["Accept"]);
        // Well within the worker's 15 s poll.
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(await kinds()).toEqual([]);
      } finally {
        await worker.stop();
      }
    });

    it("runs an activity once, taken by two instances and run by two workers at once, and again after it ran", async () => {
      const [one, two] = [instance(), instance()];
      const activity = follow();
      // The sender retries (a timeout, say), reaching the other instance.
      expect((await post(one, activity)).status).toBe(202);
      expect((await post(two, activity)).status).toBe(202);
      expect(await kinds()).toEqual([INBOX_JOB]);
      const ran = await Promise.all([
        runJobs(database.db, [INBOX_JOB]),
        runJobs(database.db, [INBOX_JOB]),
      ]);
      expect(ran.sort()).toEqual([0, 1]);
      expect(await database.db.select().from(socialFollowers)).toHaveLength(1);
      expect(await kinds()).toEqual([DELIVER_JOB]);
      // Once more after it ran: queued, and recognized as done (Fedify's record in social_kv).
      expect((await post(two, activity)).status).toBe(202);
      await runJobs(database.db, [INBOX_JOB]);
      expect(await kinds()).toEqual([DELIVER_JOB]);
    });

    it("drops an activity whose sender was blocked while it waited", async () => {
      const app = instance();
      expect((await post(app, follow())).status).toBe(202);
      await blockActor(database.db, peer.actorId);
      await runJobs(database.db, [INBOX_JOB]);
      expect(await kinds()).toEqual([]);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);
      // Blocked before: not even queued.
      expect((await post(app, follow())).status).toBe(202);
      expect(await database.db.select().from(jobs).where(eq(jobs.kind, INBOX_JOB))).toEqual([]);
    });
  });
}

import { readFileSync } from "node:fs";

import { Create, Delete } from "@fedify/vocab";
import { eq, sql } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  createPost,
  publishDuePosts,
  updatePost,
  type PostWriteInput,
} from "../../app/features/posts/write.server";
import { importParsers, runImport } from "../../app/features/import/index.server";
import { trashPost } from "../../app/features/posts/trash.server";
import {
  DELIVER_JOB,
  FOLLOWER_DROP_AFTER_MS,
  INBOX_RATE_LIMIT,
  POST_CHANGED_JOB,
  SOCIAL_JOBS,
} from "../../app/features/social/index.server";
import { parseEnv } from "../../app/lib/env.server";
import { setOutgoingFetchPolicy } from "../../app/lib/safe-fetch.server";
import { importedPosts, jobs, socialFollowers, socialOutbox } from "../../database/schema";
import { createHttpApp } from "../../server/http";
import { appRouteManifest } from "../app-routes";
import { runDueJobs } from "./run-jobs";
import { drivers, skipReason, type TestDatabase } from "./databases";
import { startPeer, type Peer } from "./federation-peer";

const SITE = "http://localhost:3000";
const ACTOR = `${SITE}/ap/users/owner`;
const PEER_PORT = 5102;

const runSocialJobs = (db: TestDatabase["db"]) => runDueJobs(db, SOCIAL_JOBS);

const draft: PostWriteInput = {
  title: "Federated",
  description: "About federation",
  content: "<p>First words</p>",
  slug: null,
  tags: ["fediverse"],
  publish: { mode: "now" },
};

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
  describe.skipIf(skipReason(driver) !== null)(`publishing federates on ${driver.name}`, () => {
    let database: TestDatabase;
    let app: ReturnType<typeof createHttpApp>;
    beforeEach(async () => {
      database = await driver.fresh();
      // Configures the federation for this site, as the server does at start.
      app = createHttpApp({
        env: parseEnv({ SITE_URL: SITE, FETCH_ALLOW_PRIVATE: "true" }),
        database,
        loadBuild: async () => ({ routes: appRouteManifest() }) as unknown as ServerBuild,
      });
      peer.received.length = 0;
      peer.answers.status = 202;
      // Two followers on the peer's shared inbox, one with only an inbox of its own.
      await database.db.insert(socialFollowers).values(
        ["a", "b", "c"].map((name) => ({
          actorUrl: `${peer.base}/users/${name}`,
          inboxUrl: `${peer.base}/users/${name}/inbox`,
          sharedInboxUrl: name === "c" ? null : `${peer.base}/inbox`,
          domain: "localhost",
        })),
      );
    });
    afterEach(() => database.dispose());

    const types = () => peer.received.map((r) => `${r.body.type as string} ${r.path}`).sort();
    const outbox = () => database.db.select().from(socialOutbox).orderBy(socialOutbox.id);

    it("sends Create on publish, Update on an edit, nothing for no change, Delete on trash, one delivery per inbox", async () => {
      const { id } = await createPost(database.db, draft);
      await runSocialJobs(database.db);
      expect(types()).toEqual(["Create /inbox", "Create /users/c/inbox"]);
      const create = peer.received[0]!.body;
      expect(create).toMatchObject({
        actor: ACTOR,
        to: "as:Public",
        cc: `${ACTOR}/followers`,
        object: { type: "Article", id: `${SITE}/ap/posts/${id}`, name: "Federated" },
      });
      expect(create.id).toMatch(new RegExp(`^${SITE}/ap/activities/create/`));
      expect(peer.received[0]!.headers.signature).toContain(`keyId="${ACTOR}#main-key"`);

      peer.received.length = 0;
      await updatePost(database.db, id, {
        ...draft,
        content: "<p>Second words</p>",
        publish: { mode: "keep" },
      });
      await runSocialJobs(database.db);
      expect(types()).toEqual(["Update /inbox", "Update /users/c/inbox"]);
      expect((peer.received[0]!.body.object as { content: string }).content).toContain(
        "Second words",
      );

      // The same job again (a retry, a second instance): nothing new is sent.
      peer.received.length = 0;
      await database.db.insert(jobs).values({ kind: POST_CHANGED_JOB, payload: { postId: id } });
      await runSocialJobs(database.db);
      expect(peer.received).toEqual([]);

      await trashPost(database.db, id);
      await runSocialJobs(database.db);
      expect(types()).toEqual(["Delete /inbox", "Delete /users/c/inbox"]);
      expect(peer.received[0]!.body.object).toMatchObject({
        type: "Tombstone",
        id: `${SITE}/ap/posts/${id}`,
      });
      expect((await outbox()).map((row) => row.type)).toEqual(["Create", "Update", "Delete"]);

      // The outbox collection serves them, newest first.
      const collection = await app.request(`${SITE}/ap/users/owner/outbox`, {
        headers: { accept: "application/activity+json" },
      });
      const outboxJson = (await collection.json()) as {
        totalItems: number;
        first: string | { id: string };
      };
      expect(outboxJson.totalItems).toBe(3);
      const first = typeof outboxJson.first === "string" ? outboxJson.first : outboxJson.first.id;
      const page = await app.request(first, { headers: { accept: "application/activity+json" } });
      const items = ((await page.json()) as { orderedItems: { type: string }[] }).orderedItems;
      expect(items.map((item) => item.type)).toEqual(["Delete", "Update", "Create"]);
    });

    it("answers an activity's id with the activity, and 410 with a Tombstone once its post is deleted", async () => {
      const { id } = await createPost(database.db, draft);
      await runSocialJobs(database.db);
      const createId = String(peer.received[0]!.body.id);
      const get = (url: string) =>
        app.request(url, { headers: { accept: "application/activity+json" } });
      const answer = await get(createId);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("application/activity+json");
      // Read as a remote Fedify server reads it.
      const create = await Create.fromJsonLd(await answer.json());
      expect(create.id?.href).toBe(createId);
      expect(create.objectId?.href).toBe(`${SITE}/ap/posts/${id}`);
      const unknown = await get(`${SITE}/ap/activities/create/${id}-unknown`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("content-type")).toBe("application/activity+json");

      peer.received.length = 0;
      await trashPost(database.db, id);
      await runSocialJobs(database.db);
      const deleteId = String(peer.received[0]!.body.id);
      const gone = await get(createId);
      expect(gone.status).toBe(410);
      expect(await gone.json()).toMatchObject({ id: createId, type: "Tombstone" });
      const deletion = await Delete.fromJsonLd(await (await get(deleteId)).json());
      expect(deletion.objectId?.href).toBe(`${SITE}/ap/posts/${id}`);
    });

    it("federates nothing while nobody follows; once someone does, the next change is a Create", async () => {
      await database.db.delete(socialFollowers);
      const { id } = await createPost(database.db, draft);
      await runSocialJobs(database.db);
      expect(await outbox()).toEqual([]);
      await database.db.insert(socialFollowers).values({
        actorUrl: `${peer.base}/users/a`,
        inboxUrl: `${peer.base}/users/a/inbox`,
        sharedInboxUrl: `${peer.base}/inbox`,
        domain: "localhost",
      });
      await updatePost(database.db, id, {
        ...draft,
        content: "<p>Seen by a follower</p>",
        publish: { mode: "keep" },
      });
      await runSocialJobs(database.db);
      expect(types()).toEqual(["Create /inbox"]);
      expect((await outbox()).map((row) => row.type)).toEqual(["Create"]);
    });

    it("serves the followers collection from the table, counted and paged", async () => {
      const ask = (path: string) =>
        app.request(`${SITE}${path}`, { headers: { accept: "application/activity+json" } });
      const collection = (await (await ask("/ap/users/owner/followers")).json()) as {
        totalItems: number;
        first: string | { id: string };
      };
      expect(collection.totalItems).toBe(3);
      const first = typeof collection.first === "string" ? collection.first : collection.first.id;
      const page = (await (await ask(new URL(first).pathname + new URL(first).search)).json()) as {
        orderedItems: string[];
      };
      expect(page.orderedItems).toEqual(["a", "b", "c"].map((n) => `${peer.base}/users/${n}`));
    });

    it("answers an inbox's sender past INBOX_RATE_LIMIT with 429 before reading it, counted across instances", async () => {
      // A second instance on the same database: the sender's budget is one for both.
      const other = createHttpApp({
        env: parseEnv({ SITE_URL: SITE, FETCH_ALLOW_PRIVATE: "true" }),
        database,
        loadBuild: async () => ({ routes: appRouteManifest() }) as unknown as ServerBuild,
      });
      // Signed as a host whose key cannot be fetched: each is refused (401) until the limit.
      const keyId = "http://127.0.0.1:5149/users/x#main-key";
      let sent = 0;
      const send = () =>
        (sent++ % 2 === 0 ? app : other).request(`${SITE}/ap/inbox`, {
          method: "POST",
          headers: {
            "content-type": "application/activity+json",
            signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="date",signature="AA=="`,
          },
          body: "{}",
        });
      const statuses = new Set<number>();
      for (let i = 0; i < INBOX_RATE_LIMIT.requests; i++) statuses.add((await send()).status);
      expect(statuses.has(429)).toBe(false);
      const limited = await send();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    });

    it("announces no imported post, neither at the import nor at a later edit; a post written here still goes out", async () => {
      // WordPress's Theme Unit Test data (tests/fixtures/imports/README.md): five published posts.
      const { parseWordPress } = await importParsers();
      const wxr = parseWordPress(
        readFileSync("tests/fixtures/imports/wordpress/theme-unit-test-trimmed.xml", "utf8"),
      );
      const result = await runImport(database.db, wxr, undefined, { images: false });
      expect(result.created.length).toBeGreaterThan(0);
      await runSocialJobs(database.db);
      expect(peer.received).toEqual([]);

      const [imported] = await database.db.select().from(importedPosts).limit(1);
      await updatePost(database.db, imported!.postId, {
        ...draft,
        content: "<p>Fixed a typo in an old post</p>",
        publish: { mode: "keep" },
      });
      await runSocialJobs(database.db);
      expect(peer.received).toEqual([]);
      expect(await outbox()).toEqual([]);

      await createPost(database.db, draft);
      await runSocialJobs(database.db);
      expect(types()).toEqual(["Create /inbox", "Create /users/c/inbox"]);
    });

    it("sends Create when a scheduled post goes public, none for a draft", async () => {
      await createPost(database.db, { ...draft, publish: { mode: "draft" } });
      const { id } = await createPost(database.db, {
        ...draft,
        publish: { mode: "at", at: new Date(Date.now() + 60_000) },
      });
      await runSocialJobs(database.db);
      expect(peer.received).toEqual([]);
      await database.db.execute(
        sql`update blog_posts set published_at = now() - interval '1 second' where id = ${id}`,
      );
      expect(await publishDuePosts(database.db)).toEqual([id]);
      await runSocialJobs(database.db);
      expect(types()).toEqual(["Create /inbox", "Create /users/c/inbox"]);
    });

    it("drops an inbox's followers on 410 at once, and after failing for FOLLOWER_DROP_AFTER_MS otherwise", async () => {
      peer.answers.status = 410;
      await createPost(database.db, draft);
      await runSocialJobs(database.db);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);
      expect(await database.db.select().from(jobs).where(eq(jobs.kind, DELIVER_JOB))).toEqual([]);

      await database.db.insert(socialFollowers).values({
        actorUrl: `${peer.base}/users/d`,
        inboxUrl: `${peer.base}/users/d/inbox`,
        domain: "localhost",
      });
      peer.answers.status = 503;
      await createPost(database.db, { ...draft, title: "Second" });
      await runSocialJobs(database.db);
      const [failing] = await database.db.select().from(socialFollowers);
      expect(failing!.failingSince).not.toBeNull();
      // A retry within the time keeps it; past it, the follower goes.
      const due = async () =>
        database.db
          .update(jobs)
          .set({ runAt: sql`now()` })
          .where(eq(jobs.kind, DELIVER_JOB));
      await due();
      await runSocialJobs(database.db);
      expect(await database.db.select().from(socialFollowers)).toHaveLength(1);
      await database.db.update(socialFollowers).set({
        failingSince: sql`now() - make_interval(secs => ${FOLLOWER_DROP_AFTER_MS / 1000 + 60})`,
      });
      await due();
      await runSocialJobs(database.db);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);
    });
  });
}

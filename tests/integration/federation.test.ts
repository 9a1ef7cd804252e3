import { eq } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { editProfile, ensureProfile } from "../../app/features/profile/index.server";
import { SEED_PROFILE } from "../../app/features/site/index.server";
import { HANDLE_TEXT } from "../../app/features/social";
import {
  blockDomain,
  DELIVER_JOB,
  INBOX_JOB,
  SOCIAL_JOBS,
} from "../../app/features/social/index.server";
import { createPost } from "../../app/features/posts/write.server";
import { parseEnv } from "../../app/lib/env.server";
import { setOutgoingFetchPolicy } from "../../app/lib/safe-fetch.server";
import { jobs, socialFollowers, socialResponses } from "../../database/schema";
import { createHttpApp } from "../../server/http";
import { PageCache } from "../../server/page-cache/store";
import { appRouteManifest } from "../app-routes";
import { runDueJobs } from "./run-jobs";
import { drivers, skipReason, type TestDatabase } from "./databases";
import { startPeer, type Peer } from "./federation-peer";

const SITE = "http://localhost:3000";
const ACTOR = `${SITE}/ap/users/owner`;
const AP = "application/activity+json";
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const PEER_PORT = 5101;
/** A JSON document as the tests read it (ActivityPub documents nest freely). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON shape
type Json = Record<string, any>;
const HASH = "ab".repeat(32);

/**
 * Runs the federation's due jobs (or those of `kinds`) until none is left (failed ones wait for
 * their retry): an inbox's activities are `social.inbox` jobs.
 */
const runSocialJobs = (db: TestDatabase["db"], kinds?: string[]) =>
  runDueJobs(db, SOCIAL_JOBS, kinds);

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
  describe.skipIf(skipReason(driver) !== null)(`federation on ${driver.name}`, () => {
    let database: TestDatabase;
    let cache: PageCache;
    let app: ReturnType<typeof createHttpApp>;
    let wakes = 0;
    beforeEach(async () => {
      wakes = 0;
      database = await driver.fresh();
      cache = new PageCache({ maxBytes: 1 << 20 });
      app = createHttpApp({
        env: parseEnv({ SITE_URL: SITE, FETCH_ALLOW_PRIVATE: "true" }),
        database,
        pageCache: cache,
        wakeJobs: () => wakes++,
        // The site's real routes; pages come from the cache here, ActivityPub never needs one.
        loadBuild: async () => ({ routes: appRouteManifest() }) as unknown as ServerBuild,
      });
      peer.received.length = 0;
      peer.answers.status = 202;
    });
    afterEach(() => database.dispose());

    const get = (path: string, accept: string) =>
      app.request(`${SITE}${path}`, { headers: { accept } });
    const post = async (path: string, activity: unknown, options?: { forged?: boolean }) =>
      app.request(await peer.signed(`${SITE}${path}`, activity, options));
    const follow = () => ({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: peer.id("follow"),
      type: "Follow",
      actor: peer.actorId,
      object: ACTOR,
    });

    it("answers WebFinger for the handle and the site's URL, NodeInfo, and the actor", async () => {
      for (const resource of [`acct:alexbyrne@localhost:3000`, `${SITE}/`, ACTOR]) {
        const finger = await get(
          `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
          "*/*",
        );
        expect(finger.status, resource).toBe(200);
        const jrd = (await finger.json()) as {
          subject: string;
          links: { rel: string; href?: string; type?: string }[];
        };
        expect(jrd.links).toContainEqual(
          expect.objectContaining({ rel: "self", type: AP, href: ACTOR }),
        );
      }
      // An account the site does not have: RFC 7033's 404, not the site's HTML page.
      for (const resource of ["acct:nobody@localhost:3000", "https://elsewhere.example/"]) {
        const unknown = await get(
          `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
          "text/html,*/*",
        );
        expect(unknown.status, resource).toBe(404);
        expect(unknown.headers.get("content-type") ?? "", resource).not.toContain("html");
        expect(await unknown.text(), resource).toBe("");
        expect(unknown.headers.get("access-control-allow-origin"), resource).toBe("*");
      }
      const links = (await (await get("/.well-known/nodeinfo", "*/*")).json()) as {
        links: { href: string }[];
      };
      expect(links.links.map((l) => l.href)).toContain(`${SITE}/nodeinfo/2.1`);
      const info = (await (await get("/nodeinfo/2.1", "*/*")).json()) as Json;
      expect(info.software.name).toBe("dev-portfolio");
      expect(info.protocols).toEqual(["activitypub"]);

      const actor = await get("/ap/users/owner", AP);
      expect(actor.headers.get("content-type")).toContain("application/activity+json");
      const person = (await actor.json()) as Json;
      expect(person).toMatchObject({
        id: ACTOR,
        type: "Person",
        preferredUsername: "alexbyrne",
        name: "Alex Byrne",
        url: `${SITE}/`,
        inbox: `${ACTOR}/inbox`,
        outbox: `${ACTOR}/outbox`,
        followers: `${ACTOR}/followers`,
        endpoints: { sharedInbox: `${SITE}/ap/inbox` },
      });
      expect(person.publicKey.publicKeyPem).toContain("BEGIN PUBLIC KEY");
      // The key id deliveries are signed with (delivery.server.ts) is the actor's key.
      expect(person.publicKey.id).toBe(`${ACTOR}#main-key`);
      expect(person.summary).toContain("<p>");
      // The same key for every request (and instance): it is stored.
      const again = (await (await get("/ap/users/owner", AP)).json()) as Json;
      expect(again.publicKey.publicKeyPem).toBe(person.publicKey.publicKeyPem);
    });

    it("takes the handle from the profile form (checked), and WebFinger and the actor follow it", async () => {
      await ensureProfile(database.db, SEED_PROFILE);
      const form = (handle: string) => {
        const data = new FormData();
        const fields = { intent: "save", name: "Alex Byrne", title: "Dev", location: "Dublin" };
        for (const [name, value] of Object.entries(fields)) data.set(name, value);
        data.set("email", "alex@example.com");
        data.set("about", "Hello.");
        data.set("fediverseHandle", handle);
        return data;
      };
      const refused = await editProfile(database.db, form("alex byrne!"));
      expect(refused.status).toBe(400);
      expect(refused.result.errors?.fediverseHandle).toBe(HANDLE_TEXT.invalid);
      expect((await editProfile(database.db, form("@Alex_B"))).status).toBe(200);
      const finger = await get(`/.well-known/webfinger?resource=acct:alex_b@localhost:3000`, "*/*");
      expect(finger.status).toBe(200);
      const person = (await (await get("/", AP)).json()) as Json;
      expect(person.preferredUsername).toBe("alex_b");
    });

    it("answers / and a post page with the actor and the Article to ActivityPub, HTML to browsers, never the cached page to ActivityPub", async () => {
      const { id, slug } = await createPost(database.db, {
        title: "Hello fediverse",
        description: "A first federated post",
        content: `<p>Text</p><p><img src="/media/${HASH}.webp" alt="A diagram"></p>`,
        slug: null,
        tags: ["sql", "rust"],
        publish: { mode: "now" },
      });
      for (const path of ["/", `/blog/${slug}`]) {
        await cache.fill(path, async () => ({
          status: 200,
          headers: [["content-type", "text/html; charset=utf-8"]],
          body: Buffer.from(`<html>cached ${path}</html>`),
          etag: `W/"${path}"`,
          tags: [],
        }));
        const page = await get(path, BROWSER);
        expect(page.status).toBe(200);
        expect(await page.text()).toBe(`<html>cached ${path}</html>`);
        expect(page.headers.get("vary")).toContain("Accept");
      }
      for (const accept of [
        AP,
        'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
      ]) {
        const home = await get("/", accept);
        expect(home.headers.get("content-type")).toContain("json");
        expect(home.headers.get("vary")).toContain("Accept");
        expect(((await home.json()) as { id: string }).id).toBe(ACTOR);
      }
      const answer = await get(`/blog/${slug}`, AP);
      expect(answer.headers.get("vary")).toContain("Accept");
      const article = (await answer.json()) as Json;
      expect(article).toMatchObject({
        id: `${SITE}/ap/posts/${id}`,
        type: "Article",
        name: "Hello fediverse",
        summary: "A first federated post",
        url: `${SITE}/blog/${slug}`,
        attributedTo: ACTOR,
        to: "as:Public",
        cc: `${ACTOR}/followers`,
      });
      expect(article.content).toContain(`${SITE}/media/${HASH}.webp`);
      expect(article.tag).toEqual([
        { type: "Hashtag", name: "#sql", href: `${SITE}/blog/tags/sql` },
        { type: "Hashtag", name: "#rust", href: `${SITE}/blog/tags/rust` },
      ]);
      expect(article.attachment).toMatchObject({
        type: "Image",
        url: `${SITE}/media/${HASH}.webp`,
        name: "A diagram",
      });
      // The Article's own id answers the same.
      expect(((await (await get(`/ap/posts/${id}`, AP)).json()) as { id: string }).id).toBe(
        article.id,
      );
    });

    it("stores a signed Follow's follower and queues the Accept to its inbox, signed draft-cavage; Undo removes it", async () => {
      const activity = follow();
      const answer = await post("/ap/users/owner/inbox", activity);
      expect(answer.status).toBe(202);
      // Taken: the activity waits as a job, and the job worker is told at once.
      const waiting = await database.db.select().from(jobs);
      expect(waiting.map((job) => job.kind)).toEqual([INBOX_JOB]);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);
      expect(wakes).toBe(1);
      await runSocialJobs(database.db, [INBOX_JOB]);
      const [row] = await database.db.select().from(socialFollowers);
      expect(row).toMatchObject({
        actorUrl: peer.actorId,
        inboxUrl: `${peer.actorId}/inbox`,
        sharedInboxUrl: `${peer.base}/inbox`,
        handle: `@peer@localhost:${PEER_PORT}`,
        name: "Peer peer",
        avatarUrl: `${peer.base}/avatar.png`,
        domain: "localhost",
      });
      const queued = await database.db.select().from(jobs).where(eq(jobs.kind, DELIVER_JOB));
      expect(queued).toHaveLength(1);
      await runSocialJobs(database.db);
      expect(peer.received).toHaveLength(1);
      const [accept] = peer.received;
      expect(accept!.path).toBe("/users/peer/inbox");
      expect(accept!.body).toMatchObject({
        type: "Accept",
        actor: ACTOR,
        object: { id: activity.id, type: "Follow" },
      });
      expect(accept!.headers.signature).toMatch(/algorithm="rsa-sha256"/);
      const signedHeaders = /headers="([^"]+)"/.exec(accept!.headers.signature!)![1]!.split(" ");
      expect(signedHeaders.sort()).toEqual(["(request-target)", "date", "digest", "host"]);
      expect(accept!.headers.digest).toMatch(/^SHA-256=/);
      expect(accept!.headers.signature).toContain(`keyId="${ACTOR}#main-key"`);

      const undo = await post("/ap/inbox", {
        "@context": "https://www.w3.org/ns/activitystreams",
        id: peer.id("undo"),
        type: "Undo",
        actor: peer.actorId,
        object: activity,
      });
      expect(undo.status).toBe(202);
      await runSocialJobs(database.db);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);
    });

    it("answers 401 to a forged or missing signature and stores nothing", async () => {
      const forged = await post("/ap/users/owner/inbox", follow(), { forged: true });
      expect(forged.status).toBe(401);
      const unsigned = await app.request(`${SITE}/ap/inbox`, {
        method: "POST",
        headers: { "content-type": AP },
        body: JSON.stringify(follow()),
      });
      expect(unsigned.status).toBe(401);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);
      expect(await database.db.select().from(jobs)).toEqual([]);
    });

    it("drops a blocked domain's Follow silently", async () => {
      await blockDomain(database.db, "localhost");
      const answer = await post("/ap/inbox", follow());
      expect(answer.status).toBe(202);
      // Not even queued.
      expect(await database.db.select().from(jobs)).toEqual([]);
      expect(await database.db.select().from(socialFollowers)).toEqual([]);
    });

    it("stores a reply to a post pending, a like approved, and removes them on Delete and Undo", async () => {
      const { id, slug } = await createPost(database.db, {
        title: "Replied",
        description: "",
        content: "<p>x</p>",
        slug: null,
        tags: null,
        publish: { mode: "now" },
      });
      const note = {
        id: peer.id("note"),
        type: "Note",
        attributedTo: peer.actorId,
        inReplyTo: `${SITE}/blog/${slug}`,
        content: "<p>Nice post<script>alert(1)</script></p>",
        published: "2026-11-26T10:00:00Z",
      };
      const context = "https://www.w3.org/ns/activitystreams";
      const create = {
        "@context": context,
        id: peer.id("create"),
        type: "Create",
        actor: peer.actorId,
        object: note,
      };
      expect((await post("/ap/inbox", create)).status).toBe(202);
      const edited = { ...note, content: "<p>Nice post, edited</p>" };
      const update = {
        "@context": context,
        id: peer.id("update"),
        type: "Update",
        actor: peer.actorId,
        object: edited,
      };
      expect((await post("/ap/inbox", update)).status).toBe(202);
      const boost = {
        "@context": context,
        id: peer.id("announce"),
        type: "Announce",
        actor: peer.actorId,
        object: `${SITE}/blog/${slug}`,
      };
      expect((await post("/ap/inbox", boost)).status).toBe(202);
      const like = {
        "@context": context,
        id: peer.id("like"),
        type: "Like",
        actor: peer.actorId,
        object: `${SITE}/ap/posts/${id}`,
      };
      expect((await post("/ap/inbox", like)).status).toBe(202);
      // A note whose id is on another host than its sender's is not stored.
      const spoofed = {
        ...create,
        id: peer.id("create"),
        object: { ...note, id: "http://elsewhere.example/notes/1" },
      };
      expect((await post("/ap/inbox", spoofed)).status).toBe(202);
      await runSocialJobs(database.db);
      const rows = await database.db.select().from(socialResponses);
      expect(rows.map((r) => [r.kind, r.status, r.sourceUrl, r.postId]).sort()).toEqual([
        ["announce", "approved", boost.id, id],
        ["like", "approved", like.id, id],
        ["reply", "pending", note.id, id],
      ]);
      const reply = rows.find((r) => r.kind === "reply")!;
      expect(reply.contentHtml).toBe("<p>Nice post, edited</p>");
      expect(reply.authorName).toBe("Peer peer");

      await post("/ap/inbox", {
        "@context": context,
        id: peer.id("delete"),
        type: "Delete",
        actor: peer.actorId,
        object: note.id,
      });
      await post("/ap/inbox", {
        "@context": context,
        id: peer.id("undo"),
        type: "Undo",
        actor: peer.actorId,
        object: like,
      });
      await post("/ap/inbox", {
        "@context": context,
        id: peer.id("undo"),
        type: "Undo",
        actor: peer.actorId,
        object: boost,
      });
      await runSocialJobs(database.db);
      expect(await database.db.select().from(socialResponses)).toEqual([]);
    });
  });
}

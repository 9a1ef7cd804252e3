import pg from "pg";

import { SOCIAL_TEXT } from "../../app/features/social/admin";
import { RESPONSES_TEXT } from "../../app/features/social/responses";
import { startFediversePeer, type FediversePeer } from "../fediverse/peer";
import { expect, test } from "./fixtures";
import { nextAlert, signInPage } from "./owner";
import { freshDatabase, serveOn } from "./processes";

/**
 * The fediverse end to end, against a server this project did not write: an independent Fedify
 * server on loopback (tests/fediverse/peer.ts, actor alice on `localhost`) finds the site by its
 * handle, follows it and gets a signed Accept; publishing, editing and trashing a post reach it
 * as Create, Update and Delete; its reply waits in /admin/social and shows under the post once
 * approved (a rejected one never does). Every delivery passes the wire-format checker. A second
 * peer on another loopback address (127.0.0.2) is the blocked domain. Own server on PostgreSQL
 * with FETCH_ALLOW_PRIVATE, so the site may reach the peers.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const PORT = Number(process.env.E2E_PORT_BASE ?? 3210) + 40;
const ALICE_PORT = PORT + 1;
const MALLORY_PORT = PORT + 2;
/** The feature's promise: a published post reaches followers within 5 s. */
const DELIVERY_MS = 5_000;

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test.describe("Federation with an independent ActivityPub server", () => {
  test.skip(!TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: this test needs PostgreSQL");

  const base = `http://127.0.0.1:${PORT}`;
  const actorUrl = `${base}/ap/users/owner`;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let server: Awaited<ReturnType<typeof serveOn>>["server"];
  let alice: FediversePeer;
  let mallory: FediversePeer;
  let postId: number;
  const query = async <T>(sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const received = (peer: FediversePeer, type: string) => peer.inbox.filter((a) => a.type === type);
  const objectOf = (json: Record<string, unknown>) => json.object as Record<string, unknown>;

  test.beforeAll(async () => {
    database = await freshDatabase("federation");
    ({ server } = await serveOn(PORT, database.url, {
      FETCH_ALLOW_PRIVATE: "true",
      PAGE_CACHE_HEADER: "true",
    }));
    alice = await startFediversePeer({ port: ALICE_PORT, host: "localhost", name: "alice" });
    mallory = await startFediversePeer({ port: MALLORY_PORT, host: "127.0.0.2", name: "mallory" });
  });

  test.afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await alice?.close();
    await mallory?.close();
    await database?.drop();
  });

  test.afterEach(() => {
    // Whatever the site sent the peers met Mastodon's wire format.
    for (const delivery of [...(alice?.deliveries ?? []), ...(mallory?.deliveries ?? [])]) {
      expect(delivery.problems, `${delivery.path} ${delivery.body.slice(0, 80)}`).toEqual([]);
    }
  });

  test("the peer finds the site by its handle, follows it and receives a signed Accept", async ({
    request,
  }) => {
    const jrd = (await (
      await request.get(`/.well-known/webfinger?resource=${encodeURIComponent(`${base}/`)}`)
    ).json()) as { subject: string; aliases?: string[] };
    // Asked by the site's address, WebFinger names the handle (acct:) among its aliases.
    const acct = [jrd.subject, ...(jrd.aliases ?? [])].find((a) => a.startsWith("acct:"));
    const handle = acct!.replace(/^acct:/, "@");
    expect(handle).toMatch(new RegExp(`^@\\w+@127\\.0\\.0\\.1:${PORT}$`));
    const site = await alice.lookupHandle(handle);
    expect(site.id?.href).toBe(actorUrl);
    const follow = await alice.follow(site);
    await expect.poll(() => received(alice, "Accept").length, { timeout: DELIVERY_MS }).toBe(1);
    const accept = received(alice, "Accept")[0]!.json;
    expect(accept.actor).toBe(actorUrl);
    expect(objectOf(accept).id ?? accept.object).toBe(follow.id?.href);
    // The Accept came signed: it passed Fedify's inbox, and the checker (afterEach).
    expect(alice.deliveries.length).toBeGreaterThan(0);
    expect(await query("select actor_url, domain from social_followers")).toEqual([
      { actor_url: alice.actorId, domain: "localhost" },
    ]);
  });

  test("Publish reaches the peer as Create{Article} within 5 s; an edit as Update; Trash as Delete", async ({
    page,
  }) => {
    postId = (
      await query<{ id: number }>(
        `insert into blog_posts (title, slug, description, content, status)
       values ('Federated news', 'federated-news', 'What federates', '<p>Hello, fediverse.</p>', 'draft')
       returning id`,
      )
    )[0]!.id;
    await signInPage(page, "/admin/posts");
    await page.getByRole("link", { name: "Edit Federated news" }).click();
    await page.getByRole("radio", { name: "Publish", exact: true }).check();
    const alert = nextAlert(page);
    const published = Date.now();
    await page.getByRole("button", { name: "Update Post" }).click();
    await alert;
    await expect
      .poll(() => received(alice, "Create").length, { timeout: DELIVERY_MS, intervals: [100] })
      .toBe(1);
    expect(Date.now() - published).toBeLessThan(DELIVERY_MS);
    const article = objectOf(received(alice, "Create")[0]!.json);
    expect(article).toMatchObject({
      type: "Article",
      id: `${base}/ap/posts/${postId}`,
      name: "Federated news",
      url: `${base}/blog/federated-news`,
    });
    expect(String(article.content)).toContain("Hello, fediverse.");
    // One delivery per shared inbox: alice's, not her own inbox.
    const creates = alice.deliveries.filter((d) => d.body.includes('"Create"'));
    expect(creates.map((d) => d.path)).toEqual(["/inbox"]);
    // The Create's id is dereferenceable: the peer fetches it as the activity.
    const createId = String(received(alice, "Create")[0]!.json.id);
    const fetched = await alice.lookup(createId);
    expect(fetched.constructor.name).toBe("Create");
    expect((fetched as unknown as { objectId: URL }).objectId.href).toBe(
      `${base}/ap/posts/${postId}`,
    );

    await query(`update blog_posts set content = '<p>Hello again, fediverse.</p>' where id = $1`, [
      postId,
    ]);
    await expect.poll(() => received(alice, "Update").length, { timeout: DELIVERY_MS }).toBe(1);
    expect(String(objectOf(received(alice, "Update")[0]!.json).content)).toContain("Hello again");

    // The trash, as the owner's Delete leaves the row (status trashed).
    await query(
      `update blog_posts set status = 'trashed', trashed_at = now(), trashed_status = 'published' where id = $1`,
      [postId],
    );
    await expect.poll(() => received(alice, "Delete").length, { timeout: DELIVERY_MS }).toBe(1);
    const deleted = received(alice, "Delete")[0]!.json;
    expect(objectOf(deleted).id ?? deleted.object).toBe(`${base}/ap/posts/${postId}`);
    // Its post deleted, the Create's id is gone: 410 with a Tombstone, as Mastodon answers.
    const gone = await fetch(createId, { headers: { accept: "application/activity+json" } });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ id: createId, type: "Tombstone" });
  });

  test("the peer's reply waits in moderation, shows once approved (cached page too); a rejected one never shows; likes and boosts count", async ({
    page,
    request,
  }) => {
    postId = (
      await query<{ id: number }>(
        `insert into blog_posts (title, slug, content) values ('Answer me', 'answer-me', '<p>Replies welcome.</p>') returning id`,
      )
    )[0]!.id;
    const postUrl = `${base}/blog/answer-me`;
    // Cached before any reply exists. The insert's own jobs (its Create to the followers) may
    // drop the page once after the first request; it is cached again by the next.
    await expect
      .poll(async () => (await request.get(postUrl)).headers()["x-page-cache"], {
        timeout: 15_000,
      })
      .toBe("hit");
    const site = await alice.lookup(actorUrl);
    const article = await alice.lookup(`${base}/ap/posts/${postId}`);
    await alice.reply(site, article, "<p>Approved words from alice.</p>");
    await alice.reply(site, article, "<p>Rejected words from alice.</p>");
    await alice.like(site, article);
    await alice.announce(site, article);
    await expect
      .poll(async () => (await query("select id from social_responses")).length, {
        timeout: 10_000,
      })
      .toBe(4);
    // Likes and boosts only count, approved at once; replies wait for the owner.
    expect(await query("select kind, status from social_responses order by kind, id")).toEqual([
      { kind: "announce", status: "approved" },
      { kind: "like", status: "approved" },
      { kind: "reply", status: "pending" },
      { kind: "reply", status: "pending" },
    ]);

    await signInPage(page, "/admin/social");
    const pending = page.getByTestId("social-pending");
    await expect(pending).toHaveCount(2);
    await pending
      .filter({ hasText: "Approved words" })
      .getByRole("button", { name: SOCIAL_TEXT.approve })
      .click();
    await expect(page.getByRole("status")).toHaveText(SOCIAL_TEXT.done.approve);
    await pending
      .filter({ hasText: "Rejected words" })
      .getByRole("button", { name: SOCIAL_TEXT.reject })
      .click();
    await expect(page.getByRole("status")).toHaveText(SOCIAL_TEXT.done.reject);
    await expect(page.getByTestId("social-pending")).toHaveCount(0);

    const first = await request.get(postUrl);
    const again = await request.get(postUrl);
    expect(again.headers()["x-page-cache"]).toBe("hit");
    for (const html of [await first.text(), await again.text()]) {
      expect(html).toContain(RESPONSES_TEXT.heading);
      expect(html).toContain("Approved words from alice.");
      expect(html).not.toContain("Rejected words");
    }
    await page.goto(postUrl);
    const responses = page.getByTestId("responses");
    await expect(responses.getByTestId("response")).toHaveCount(1);
    await expect(responses).toContainText("Approved words from alice.");
  });

  test("a missing or forged signature gets 401 and stores nothing; a blocked domain's follow is dropped; Undo ends a follow", async () => {
    const inbox = `${base}/ap/users/owner/inbox`;
    const before = await query("select actor_url from social_followers order by id");
    expect((await mallory.unsigned(inbox, mallory.followJson(actorUrl))).status).toBe(401);
    expect((await mallory.forged(inbox, mallory.followJson(actorUrl))).status).toBe(401);
    expect((await mallory.forged(`${base}/ap/inbox`, mallory.followJson(actorUrl))).status).toBe(
      401,
    );
    expect(await query("select actor_url from social_followers order by id")).toEqual(before);
    expect(mallory.inbox).toEqual([]);

    await query(`insert into social_blocks (kind, value) values ('domain', '127.0.0.2')`);
    const site = await mallory.lookup(actorUrl);
    await mallory.follow(site);
    // alice's follow, sent after mallory's, is accepted: by then mallory's had its answer.
    const follow = await alice.follow(site);
    await expect
      .poll(() => received(alice, "Accept").some((a) => objectOf(a.json)?.id === follow.id?.href), {
        timeout: DELIVERY_MS,
      })
      .toBe(true);
    await expect
      .poll(async () => (await query("select id from jobs where kind like 'social.%'")).length, {
        timeout: 10_000,
      })
      .toBe(0);
    expect(mallory.inbox).toEqual([]);
    expect(await query("select actor_url from social_followers order by id")).toEqual(before);

    // Undo of the follow: alice is no longer a follower.
    await alice.unfollow(site, follow);
    await expect
      .poll(async () => await query("select actor_url from social_followers"), { timeout: 10_000 })
      .toEqual([]);
  });
});

// Responses and Webmentions against both databases: the owner's moderation (through the page's
// action, POST then a redirect), what a post shows, the cache notices of migration 0020's
// trigger, and Webmentions received and sent between this site and loopback pages.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  blockFollower,
  listBlocks,
  readPostResponses,
  receiveWebmention,
  recordResponse,
  configureSocial,
  socialAdminAction,
  socialAdminData,
  WEBMENTION_JOBS,
} from "../../app/features/social/index.server";
import { ResponsesSection, WEBMENTION_LIMITS, WEBMENTION_TEXT } from "../../app/features/social";
import { setOutgoingFetchPolicy } from "../../app/lib/safe-fetch.server";
import {
  blogPosts,
  jobs,
  socialBlocks,
  socialFollowers,
  socialResponses,
} from "../../database/schema";
import { runImport } from "../../app/features/import/index.server";
import type { ParsedExport } from "../../app/features/import/types";
import { updatePost } from "../../app/features/posts/write.server";
import { demoContent } from "../../content/demo";
import { seedDemoContent } from "../../database/seed.server";
import { runDueJobs } from "./run-jobs";
import { drivers, routeContext, skipReason, type TestDatabase } from "./databases";

const SITE = "http://blog.test";

/** Loopback pages: sources that link (or not) to a post, a page with an endpoint that records. */
let server: Server;
let base: string;
const pages = new Map<string, { status?: number; html: string }>();
const received: string[] = [];

beforeAll(async () => {
  configureSocial({ siteUrl: SITE });
  setOutgoingFetchPolicy({ allowPrivate: true });
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/endpoint") {
        received.push(body);
        res.writeHead(202);
        return res.end();
      }
      const page = pages.get(req.url ?? "");
      if (!page) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(page.status ?? 200, { "content-type": "text/html" });
      res.end(page.html);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  setOutgoingFetchPolicy({ allowPrivate: false });
  await new Promise((resolve) => server.close(resolve));
});

const post = (body: Record<string, string>) =>
  new Request(`${SITE}/admin/social`, { method: "POST", body: new URLSearchParams(body) });

/** Runs every due job of these kinds, as the worker would. */
const runJobs = (database: TestDatabase) => runDueJobs(database.db, WEBMENTION_JOBS);

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(
    `responses and webmentions on ${driver.name}`,
    () => {
      let database: TestDatabase;
      let postId: number;
      beforeEach(async () => {
        database = await driver.fresh();
        const [row] = await database.db
          .insert(blogPosts)
          .values({ title: "Hello", slug: "hello", content: "<p>Hi</p>", status: "published" })
          .returning({ id: blogPosts.id });
        postId = row!.id;
        pages.clear();
        received.length = 0;
        await database.db.delete(jobs);
      });
      afterEach(() => database.dispose());

      const reply = (n: number, author = `https://social.example/users/u${n}`) =>
        recordResponse(database.db, {
          postId,
          source: "activitypub",
          kind: "reply",
          sourceUrl: `https://social.example/notes/${n}`,
          authorName: `User ${n}`,
          authorUrl: author,
          contentHtml: `<p>Reply ${n}<script>alert(1)</script></p>`,
        });

      it("shows a reply only once approved, never a rejected one, and counts likes and boosts", async () => {
        const db = database.db;
        await reply(1);
        await reply(2);
        for (const [n, kind] of [
          [3, "like"],
          [4, "like"],
          [5, "announce"],
        ] as const) {
          await recordResponse(db, {
            postId,
            source: "activitypub",
            kind,
            sourceUrl: `https://social.example/a/${n}`,
          });
        }
        expect(await readPostResponses(db, postId)).toMatchObject({
          items: [],
          likes: 2,
          boosts: 1,
        });
        const context = routeContext(database);
        const page = await socialAdminData(new Request(`${SITE}/admin/social`), context);
        expect(page.pending.map((r) => r.authorName)).toEqual(["User 1", "User 2"]);
        const [first, second] = page.pending;

        const approved = (await socialAdminAction(
          post({ intent: "approve", id: String(first!.id) }),
          context,
        )) as Response;
        expect(approved.status).toBe(303);
        expect(approved.headers.get("location")).toBe("/admin/social?done=approve");
        await socialAdminAction(post({ intent: "reject", id: String(second!.id) }), context);

        const shown = await readPostResponses(db, postId);
        expect(shown.items.map((r) => [r.authorName, r.contentHtml])).toEqual([
          ["User 1", "<p>Reply 1</p>"],
        ]);
        const html = renderToStaticMarkup(createElement(ResponsesSection, { responses: shown }));
        expect(html).toContain('<h2 id="responses-heading"');
        expect(html).toContain("2 likes, 1 boost");
        expect(html).toContain('href="https://social.example/users/u1"');
        expect(html).toContain("<p>Reply 1</p>");
        expect(html).not.toContain("script");
        expect(html).not.toContain("Reply 2");
        const after = await socialAdminData(
          new Request(`${SITE}/admin/social?done=approve`),
          context,
        );
        expect(after.pending).toEqual([]);
        expect(after.notice).toMatch(/Approved/);
      });

      it("blocks a response's author or domain, dropping what they left, until unblocked", async () => {
        const db = database.db;
        const context = routeContext(database);
        await reply(1);
        await reply(2, "https://spam.example/users/x");
        await db.insert(socialFollowers).values([
          {
            actorUrl: "https://spam.example/users/x",
            inboxUrl: "https://spam.example/i",
            domain: "spam.example",
          },
          {
            actorUrl: "https://a.spam.example/users/y",
            inboxUrl: "https://a.spam.example/i",
            domain: "a.spam.example",
          },
          {
            actorUrl: "https://ok.example/users/z",
            inboxUrl: "https://ok.example/i",
            domain: "ok.example",
          },
        ]);
        const pending = (await socialAdminData(new Request(`${SITE}/admin/social`), context))
          .pending;
        const spam = pending.find((r) => r.authorName === "User 2")!;
        const friend = pending.find((r) => r.authorName === "User 1")!;

        await socialAdminAction(post({ intent: "block-author", id: String(friend.id) }), context);
        expect((await listBlocks(db)).map((b) => [b.kind, b.value])).toEqual([
          ["actor", "https://social.example/users/u1"],
        ]);
        expect(await reply(1)).toBe("blocked");

        await socialAdminAction(
          post({ intent: "block-author-domain", id: String(spam.id) }),
          context,
        );
        expect(await db.select().from(socialResponses)).toEqual([]);
        expect((await db.select().from(socialFollowers)).map((f) => f.domain)).toEqual([
          "ok.example",
        ]);

        const blocks = await db.select().from(socialBlocks);
        for (const block of blocks) {
          const answer = (await socialAdminAction(
            post({ intent: "unblock", id: String(block.id) }),
            context,
          )) as Response;
          expect(answer.status).toBe(303);
        }
        expect(await reply(1)).toBe("stored");
        const missing = await socialAdminAction(post({ intent: "approve", id: "999" }), context);
        expect((missing as { init: { status: number } }).init.status).toBe(404);
      });

      it("removes or blocks a follower from the list", async () => {
        const db = database.db;
        const context = routeContext(database);
        const rows = await db
          .insert(socialFollowers)
          .values([
            {
              actorUrl: "https://m.example/users/a",
              inboxUrl: "https://m.example/a",
              domain: "m.example",
            },
            {
              actorUrl: "https://m.example/users/b",
              inboxUrl: "https://m.example/b",
              domain: "m.example",
            },
            {
              actorUrl: "https://n.example/users/c",
              inboxUrl: "https://n.example/c",
              domain: "n.example",
            },
          ])
          .returning({ id: socialFollowers.id });
        const page = await socialAdminData(new Request(`${SITE}/admin/social`), context);
        expect(page.followers.total).toBe(3);
        await socialAdminAction(
          post({ intent: "remove-follower", id: String(rows[2]!.id) }),
          context,
        );
        expect(await blockFollower(db, rows[0]!.id, "actor")).toBe(true);
        expect((await db.select().from(socialFollowers)).map((f) => f.actorUrl)).toEqual([
          "https://m.example/users/b",
        ]);
        await socialAdminAction(
          post({ intent: "block-follower-domain", id: String(rows[1]!.id) }),
          context,
        );
        expect(await db.select().from(socialFollowers)).toEqual([]);
        expect((await listBlocks(db)).map((b) => b.value).sort()).toEqual([
          "https://m.example/users/a",
          "m.example",
        ]);
      });

      it("tells the page cache when a post's shown responses change, and only then", async () => {
        const notices: string[] = [];
        const subscription = await database.listen(
          "page_cache",
          (payload) => notices.push(payload),
          () => {},
        );
        try {
          const settle = () => new Promise((resolve) => setTimeout(resolve, 150));
          await reply(1);
          await settle();
          expect(notices).toEqual([]);
          await database.db.update(socialResponses).set({ status: "approved" });
          await settle();
          expect(notices).toEqual([`posts:${postId}`]);
          await database.db.delete(socialResponses);
          await settle();
          expect(notices).toEqual([`posts:${postId}`, `posts:${postId}`]);
        } finally {
          await subscription.close();
        }
      });

      it("answers 400 with why for bad Webmentions, 202 and one job for a good one", async () => {
        const db = database.db;
        const target = `${SITE}/blog/hello`;
        const answers = await Promise.all(
          [
            { source: undefined, target },
            { source: "ftp://x.example/", target },
            { source: target, target },
            { source: `${base}/a`, target: `${SITE}/blog/nope` },
            { source: `${base}/a`, target: "https://elsewhere.example/blog/hello" },
          ].map((input) => receiveWebmention(db, SITE, input)),
        );
        expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
        expect(await db.select().from(jobs)).toEqual([]);
        expect((await receiveWebmention(db, SITE, { source: `${base}/a`, target })).status).toBe(
          202,
        );
        expect((await receiveWebmention(db, SITE, { source: `${base}/a`, target })).status).toBe(
          202,
        );
        expect(await db.select({ kind: jobs.kind }).from(jobs)).toEqual([
          { kind: "social.webmention-verify" },
        ]);
      });

      it("limits the mentions waiting from one source host, whatever the others send", async () => {
        const db = database.db;
        const target = `${SITE}/blog/hello`;
        const limit = WEBMENTION_LIMITS.pendingPerSourceHost;
        for (let i = 0; i < limit; i++) {
          const answer = await receiveWebmention(db, SITE, {
            source: `https://busy.example/${i}`,
            target,
          });
          expect(answer.status).toBe(202);
        }
        const over = await receiveWebmention(db, SITE, {
          source: "https://busy.example/more",
          target,
        });
        expect(over).toEqual({ status: 429, message: WEBMENTION_TEXT.tooMany });
        const other = await receiveWebmention(db, SITE, {
          source: "https://calm.example/1",
          target,
        });
        expect(other.status).toBe(202);
      });

      it("verifies a mention: stored when the source links, dropped when not, removed when gone", async () => {
        const db = database.db;
        const target = `${SITE}/blog/hello`;
        pages.set("/reply", {
          html: `<article class="h-entry"><a class="p-author h-card" href="/me">Grace</a>
            <a class="u-in-reply-to" href="${target}">re</a><p class="e-content">Nice one.</p></article>`,
        });
        pages.set("/nolink", { html: `<p>Nothing about ${target} here but text.</p>` });
        await receiveWebmention(db, SITE, { source: `${base}/reply`, target });
        await receiveWebmention(db, SITE, { source: `${base}/nolink`, target });
        await runJobs(database);
        const stored = await db.select().from(socialResponses);
        expect(stored).toHaveLength(1);
        expect(stored[0]).toMatchObject({
          kind: "reply",
          status: "pending",
          source: "webmention",
          authorName: "Grace",
          authorUrl: `${base}/me`,
          sourceUrl: `${base}/reply`,
        });
        expect(stored[0]!.contentHtml).toContain("Nice one.");

        pages.set("/reply", { status: 410, html: "gone" });
        await receiveWebmention(db, SITE, { source: `${base}/reply`, target });
        await runJobs(database);
        expect(await db.select().from(socialResponses)).toEqual([]);
      });

      it("sends no Webmention for the demo's posts a new install seeds", async () => {
        await database.db.delete(blogPosts);
        expect(await seedDemoContent(database.db, demoContent)).toBe("seeded");
        expect(
          await database.db.select().from(jobs).where(eq(jobs.kind, "social.webmention-send")),
        ).toEqual([]);
      });

      it("sends no Webmention for an imported post, until its text is edited here", async () => {
        pages.set("/target", {
          html: `<html><head><link rel="webmention" href="/endpoint"></head><body>t</body></html>`,
        });
        const link = `<a href="${base}/target">a page the old blog linked to</a>`;
        const archive: ParsedExport = {
          source: "markdown",
          skipped: [],
          posts: [
            {
              source: "markdown",
              sourceId: "posts/old.md",
              oldUrl: null,
              oldPaths: [],
              title: "From the old blog",
              slug: "from-the-old-blog",
              description: "Moved here",
              status: "published",
              publishedAt: new Date("2019-03-01T10:00:00Z"),
              updatedAt: null,
              tags: [],
              body: { format: "html", text: `<p>Years ago: ${link}.</p>` },
              canonicalUrl: null,
              images: [],
            },
          ],
        };
        const result = await runImport(database.db, archive, undefined, { images: false });
        expect(result.failed).toEqual([]);
        const [{ id } = { id: 0 }] = result.created;
        expect(id).toBeGreaterThan(0);
        expect(
          await database.db.select().from(jobs).where(eq(jobs.kind, "social.webmention-send")),
        ).toEqual([]);
        await runJobs(database);
        expect(received).toEqual([]);

        // A post written here still sends, in the same database.
        await database.db
          .insert(blogPosts)
          .values({ title: "New", slug: "new", content: `<p>${link}</p>`, status: "published" })
          .returning({ id: blogPosts.id });
        await runJobs(database);
        expect(received).toEqual([
          new URLSearchParams({ source: `${SITE}/blog/new`, target: `${base}/target` }).toString(),
        ]);
        received.length = 0;

        // The owner edits the imported post's text: that is news, sent as any post's edit is.
        await updatePost(database.db, id, {
          title: "From the old blog",
          description: "Moved here",
          content: `<p>Years ago, and still: ${link}.</p>`,
          slug: null,
          tags: null,
          publish: { mode: "keep" },
        });
        await runJobs(database);
        expect(received).toEqual([
          new URLSearchParams({
            source: `${SITE}/blog/from-the-old-blog`,
            target: `${base}/target`,
          }).toString(),
        ]);
      });

      it("sends Webmentions when a post is published, to a link an edit removed, and when it is withdrawn", async () => {
        const db = database.db;
        pages.set("/target", {
          html: `<html><head><link rel="webmention" href="/endpoint"></head><body>t</body></html>`,
        });
        pages.set("/other", { html: `<a rel="webmention" href="${base}/endpoint">e</a>` });
        const content = `<p><a href="${base}/target">one</a> <a href="${base}/other">two</a> <a href="/blog/x">own</a></p>`;
        const [row] = await db
          .insert(blogPosts)
          .values({ title: "Links", slug: "links", content, status: "published" })
          .returning({ id: blogPosts.id });
        await runJobs(database);
        const source = `${SITE}/blog/links`;
        expect(received.sort()).toEqual(
          [`${base}/other`, `${base}/target`]
            .map((t) => new URLSearchParams({ source, target: t }).toString())
            .sort(),
        );
        received.length = 0;
        await db
          .update(blogPosts)
          .set({ content: `<p><a href="${base}/target">only one</a></p>` })
          .where(eq(blogPosts.id, row!.id));
        await runJobs(database);
        // Both are told again: the page still linked, and the page no longer linked.
        expect(received).toHaveLength(2);
        received.length = 0;
        await db.update(blogPosts).set({ title: "Renamed" }).where(eq(blogPosts.id, row!.id));
        await runJobs(database);
        expect(received).toEqual([]);
        // Unpublished: the page it still linked to is told, once.
        await db.update(blogPosts).set({ status: "draft" }).where(eq(blogPosts.id, row!.id));
        await runJobs(database);
        expect(received).toEqual([
          new URLSearchParams({ source, target: `${base}/target` }).toString(),
        ]);
        received.length = 0;
        await db.update(blogPosts).set({ title: "Still a draft" }).where(eq(blogPosts.id, row!.id));
        await runJobs(database);
        expect(received).toEqual([]);
      });
    },
  );
}

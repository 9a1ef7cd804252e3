import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { mailTransportFrom } from "../../app/features/contact/mail.server";
import { highlightCodeBlocks } from "../../app/features/posts/highlight.server";
import { publishDuePosts } from "../../app/features/posts/index.server";
import { createPost, updatePost, type PostWriteInput } from "../../app/features/posts/write.server";
import { newsletterCounts, NEWSLETTER_JOBS } from "../../app/features/subscribers/index.server";
import { subscriberSecret, unsubscribeUrl } from "../../app/features/subscribers/links.server";
import { parseEnv } from "../../app/lib/env.server";
import { startJobWorker } from "../../server/jobs";
import { startNewsletterWorker, type NewsletterWorker } from "../../server/newsletter";
import type { Route as OwnerListRoute } from "../../app/routes/+types/admin.posts";
import { loader as ownerListLoader } from "../../app/routes/admin.posts";
import { action as createPostAction } from "../../app/routes/api.posts";
import { drivers, queryRows, routeContext, skipReason, type TestDatabase } from "./databases";
import { smtpPeer } from "./mail-peer";

const SITE = { url: "https://blog.example.dev", name: "Alex Byrne", from: "alex@example.dev" };

const base: PostWriteInput = {
  title: "Shipping the newsletter",
  description: "How it goes out",
  content: "<p>Hello</p>",
  slug: null,
  tags: null,
  publish: { mode: "now" },
  sendToSubscribers: true,
};
const write = (fields: Partial<PostWriteInput> = {}): PostWriteInput => ({ ...base, ...fields });

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function addSubscribers(
  db: TestDatabase["db"],
  rows: { email: string; status: "pending" | "confirmed" | "unsubscribed" }[],
) {
  const ids: number[] = [];
  for (const row of rows) {
    const [added] = await queryRows<{ id: number }>(
      db,
      sql`insert into subscribers (email, status) values (${row.email}, ${row.status}) returning id`,
    );
    ids.push(Number(added!.id));
  }
  return ids;
}

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the newsletter on ${driver.name}`, () => {
    let database: TestDatabase;
    let peer: Awaited<ReturnType<typeof smtpPeer>>;
    let jobs: ReturnType<typeof startJobWorker>;
    let sender: NewsletterWorker;
    const start = (perMinute = 60_000) => {
      const transport = mailTransportFrom(parseEnv({ SMTP_URL: peer.url }), { pool: true });
      sender = startNewsletterWorker(database.db, transport, { site: SITE, perMinute });
    };
    /** The post's job runs (the trigger queued it), then its mails go out. */
    const deliver = async () => {
      jobs.wake();
      await jobs.settled();
      sender.wake();
      await sender.settled();
    };
    const counts = async (postId: number) =>
      (await newsletterCounts(database.db, [postId])).get(postId);

    beforeEach(async () => {
      database = await driver.fresh();
      peer = await smtpPeer();
      jobs = startJobWorker(database.db, NEWSLETTER_JOBS);
    });
    afterEach(async () => {
      await sender?.stop();
      await jobs.stop();
      await peer.close();
      await database.dispose();
    });

    it("sends a first publication to confirmed subscribers only: HTML and text, unsubscribe headers and link", async () => {
      const [ana] = await addSubscribers(database.db, [
        { email: "ana@example.com", status: "confirmed" },
        { email: "bo@example.com", status: "pending" },
        { email: "cy@example.com", status: "unsubscribed" },
      ]);
      start();
      const content = await highlightCodeBlocks(
        '<h2>Why</h2><p>See <a href="/blog/other">the other post</a> &amp; <a href="#why">why</a>.</p>' +
          '<img src="/media/abc.webp" srcset="/media/abc-480.webp 480w" alt="A chart" width="600" height="400">' +
          '<pre><code class="language-typescript">const a = 1;</code></pre><ul><li>One</li><li>Two</li></ul>',
      );
      const post = await createPost(database.db, write({ content }));
      await deliver();
      await until(() => peer.received.length === 1);
      const [mail] = peer.received;
      expect(mail!.to).toEqual(["ana@example.com"]);
      expect(mail!.headers.get("subject")).toBe("Shipping the newsletter");
      const unsubscribe = unsubscribeUrl(SITE.url, await subscriberSecret(database.db), {
        id: ana!,
        email: "ana@example.com",
      });
      expect(mail!.headers.get("list-unsubscribe")).toBe(`<${unsubscribe}>`);
      expect(mail!.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect(mail!.headers.get("message-id")).toBe(
        `<newsletter-${post.id}-${ana}@blog.example.dev>`,
      );
      // HTML: styled inline, absolute addresses, code colours inline, no dark-theme properties.
      expect(mail!.html).toContain('<h2 style="font-size:22px');
      expect(mail!.html).toContain(`href="${SITE.url}/blog/other"`);
      expect(mail!.html).toContain(`href="${SITE.url}/blog/${post.slug}#why"`);
      expect(mail!.html).toMatch(
        /<img src="https:\/\/blog\.example\.dev\/media\/abc\.webp" alt="A chart"[^>]*style="max-width:100%/,
      );
      expect(mail!.html).not.toContain("srcset");
      expect(mail!.html).toMatch(/<span style="color:#[0-9A-F]{6}">const<\/span>/i);
      expect(mail!.html).not.toContain("--shiki");
      expect(mail!.html).not.toContain("class=");
      expect(mail!.html).toContain(`<a href="${unsubscribe.replaceAll("&", "&amp;")}"`);
      // No tracking: every image is the post's own.
      expect(mail!.html.match(/<img /g)).toHaveLength(1);
      // Text: the same post, readable.
      expect(mail!.text).toContain("Shipping the newsletter");
      expect(mail!.text).toContain(`the other post (${SITE.url}/blog/other) & why`);
      expect(mail!.text).toContain(`[A chart](${SITE.url}/media/abc.webp)`);
      expect(mail!.text).toContain("const a = 1;");
      expect(mail!.text).toContain("- One\n- Two");
      expect(mail!.text).toContain(`Unsubscribe: ${unsubscribe}`);
      expect(mail!.text).not.toMatch(/<[a-z]/);
      expect(await counts(post.id)).toEqual({ sent: 1, pending: 0, failed: 0, skipped: 0 });
    });

    it("sends nothing for updates, re-publishing, the toggle off, or after unsubscribing", async () => {
      const [, bo] = await addSubscribers(database.db, [
        { email: "ana@example.com", status: "confirmed" },
        { email: "bo@example.com", status: "confirmed" },
      ]);
      start();
      const off = await createPost(
        database.db,
        write({ title: "Quiet", sendToSubscribers: false }),
      );
      const sent = await createPost(database.db, write());
      await deliver();
      await until(() => peer.received.length === 2);
      // An edit, an unpublish and a publish again: none is a first publication.
      await updatePost(database.db, sent.id, write({ title: "Edited" }));
      await updatePost(database.db, sent.id, write({ publish: { mode: "draft" } }));
      await updatePost(database.db, sent.id, write({ publish: { mode: "now" } }));
      await updatePost(database.db, off.id, write({ title: "Quiet, edited" }));
      // Bo leaves; the next post reaches Ana alone.
      await database.db.execute(
        sql`update subscribers set status = 'unsubscribed' where id = ${bo!}`,
      );
      const next = await createPost(database.db, write({ title: "Next" }));
      await deliver();
      await until(() => peer.received.length === 3);
      await sender.settled();
      expect(peer.received.map((m) => [m.headers.get("subject"), m.to[0]])).toEqual([
        ["Shipping the newsletter", "ana@example.com"],
        ["Shipping the newsletter", "bo@example.com"],
        ["Next", "ana@example.com"],
      ]);
      expect(await counts(off.id)).toBeUndefined();
      expect(await counts(next.id)).toEqual({ sent: 1, pending: 0, failed: 0, skipped: 0 });
    });

    it("skips a subscriber who left after the post was queued", async () => {
      const [, bo] = await addSubscribers(database.db, [
        { email: "ana@example.com", status: "confirmed" },
        { email: "bo@example.com", status: "confirmed" },
      ]);
      const post = await createPost(database.db, write());
      jobs.wake();
      await jobs.settled();
      await database.db.execute(
        sql`update subscribers set status = 'unsubscribed' where id = ${bo!}`,
      );
      start();
      await sender.settled();
      await until(() => peer.received.length === 1);
      expect(peer.received[0]!.to).toEqual(["ana@example.com"]);
      expect(await counts(post.id)).toEqual({ sent: 1, pending: 0, failed: 0, skipped: 1 });
    });

    it("a scheduled post is sent when the publisher publishes it, not before", async () => {
      await addSubscribers(database.db, [{ email: "ana@example.com", status: "confirmed" }]);
      start();
      const at = new Date(Date.now() + 3_600_000);
      const post = await createPost(database.db, write({ publish: { mode: "at", at } }));
      await deliver();
      expect(await counts(post.id)).toBeUndefined();
      expect(await publishDuePosts(database.db)).toEqual([]);
      // Its time comes (the clock moved by moving the row's time).
      await database.db.execute(
        sql`update blog_posts set published_at = now() - interval '1 second' where id = ${post.id}`,
      );
      expect(await publishDuePosts(database.db)).toEqual([post.id]);
      await deliver();
      await until(() => peer.received.length === 1);
      expect(peer.received[0]!.headers.get("subject")).toBe("Shipping the newsletter");
    });

    it("the post API takes the owner's choice, and refuses one that is not true or false", async () => {
      const post = (body: object) =>
        createPostAction({
          request: new Request("http://localhost/api/posts", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ title: "Via the API", content: "<p>Hi</p>", ...body }),
          }),
          context: routeContext(database),
          params: {},
        } as unknown as Parameters<typeof createPostAction>[0]);
      const refused = (await post({ sendToSubscribers: "yes" })) as { init: ResponseInit | null };
      expect(refused.init?.status).toBe(400);
      await post({ sendToSubscribers: false });
      await post({ sendToSubscribers: true });
      const rows = await queryRows<{ send: boolean | null; first: Date | null }>(
        database.db,
        sql`select send_to_subscribers as send, first_published_at as first from blog_posts order by id`,
      );
      expect(rows.map((r) => [r.send, r.first !== null])).toEqual([
        [false, true],
        [true, true],
      ]);
      const [queuedJobs] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from jobs where kind = 'newsletter.expand'`,
      );
      expect(queuedJobs!.n).toBe(1);
    });

    it("retries after the mail server refuses, then sends once", async () => {
      await addSubscribers(database.db, [{ email: "ana@example.com", status: "confirmed" }]);
      peer.refuse(1);
      start();
      const post = await createPost(database.db, write());
      await deliver();
      const [row] = await queryRows<{
        status: string;
        attempts: number;
        last_error: string;
        due_in: number;
      }>(
        database.db,
        sql`select status, attempts, last_error, extract(epoch from next_attempt_at - now()) as due_in from newsletter_sends`,
      );
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row!.last_error).toContain("try again later");
      expect(Number(row!.due_in)).toBeGreaterThan(50);
      expect(peer.received).toHaveLength(0);
      // The retry comes due.
      await database.db.execute(sql`update newsletter_sends set next_attempt_at = now()`);
      sender.wake();
      await sender.settled();
      await until(() => peer.received.length === 1);
      expect(await counts(post.id)).toEqual({ sent: 1, pending: 0, failed: 0, skipped: 0 });
      // The owner's list says how it went.
      const list = (await ownerListLoader({
        request: new Request("http://localhost/admin/posts"),
        context: routeContext(database),
        params: {},
      } as unknown as OwnerListRoute.LoaderArgs)) as {
        posts: { id: number; newsletter: unknown }[];
      };
      expect(list.posts.find((p) => p.id === post.id)?.newsletter).toMatchObject({
        sent: 1,
        pending: 0,
        failed: 0,
      });
    });
  });
}

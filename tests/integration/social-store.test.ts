import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  blockActor,
  blockDomain,
  domainOf,
  isBlocked,
  listBlocks,
  postIdForUrl,
  recordResponse,
  removeResponses,
  unblock,
} from "../../app/features/social/index.server";
import { blogPosts, socialResponses } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";

const SITE = "https://blog.example.dev";

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`blocks and responses on ${driver.name}`, () => {
    let database: TestDatabase;
    let published: number;
    let draft: number;
    beforeEach(async () => {
      database = await driver.fresh();
      const rows = await database.db
        .insert(blogPosts)
        .values([
          { title: "Out", slug: "out", content: "<p>x</p>", status: "published" },
          { title: "Draft", slug: "draft", content: "<p>x</p>", status: "draft" },
        ])
        .returning({ id: blogPosts.id });
      [published, draft] = rows.map((r) => r.id) as [number, number];
    });
    afterEach(() => database.dispose());

    it("blocks an actor exactly, and a domain with its subdomains, until unblocked", async () => {
      const db = database.db;
      await blockActor(db, "https://social.example/users/troll");
      await blockDomain(db, "Spam.Example.");
      await blockDomain(db, "spam.example"); // the same block twice is one
      expect(await isBlocked(db, "https://social.example/users/troll")).toBe(true);
      expect(await isBlocked(db, "https://social.example/users/friend")).toBe(false);
      expect(await isBlocked(db, "https://spam.example/users/a")).toBe(true);
      expect(await isBlocked(db, "https://a.b.spam.example/x")).toBe(true);
      expect(await isBlocked(db, "https://notspam.example/x")).toBe(false);
      expect(await isBlocked(db, "not a url")).toBe(true);
      const blocks = await listBlocks(db);
      expect(blocks.map((b) => [b.kind, b.value]).sort()).toEqual([
        ["actor", "https://social.example/users/troll"],
        ["domain", "spam.example"],
      ]);
      for (const block of blocks) await unblock(db, block.id);
      expect(await isBlocked(db, "https://spam.example/users/a")).toBe(false);
      expect(domainOf("https://Mastodon.Social/@x")).toBe("mastodon.social");
      expect(domainOf("  ")).toBeNull();
    });

    it("stores a reply sanitized and pending, likes approved, and keeps the owner's decision on update", async () => {
      const db = database.db;
      const reply = {
        postId: published,
        source: "activitypub" as const,
        kind: "reply" as const,
        sourceUrl: "https://social.example/notes/1",
        authorName: "Ana",
        authorUrl: "https://social.example/users/ana",
        authorPhoto: "javascript:alert(1)",
        contentHtml: '<p>Nice<script>alert(1)</script> <img src=x onerror="alert(1)"></p>',
      };
      expect(await recordResponse(db, reply)).toBe("stored");
      let [row] = await db.select().from(socialResponses);
      expect(row!.status).toBe("pending");
      expect(row!.contentHtml).not.toMatch(/script|onerror/);
      expect(row!.authorPhoto).toBeNull();
      await db.update(socialResponses).set({ status: "approved" });
      expect(await recordResponse(db, { ...reply, contentHtml: "<p>Edited</p>" })).toBe("stored");
      [row] = await db.select().from(socialResponses);
      expect(row!.status).toBe("approved");
      expect(row!.contentHtml).toBe("<p>Edited</p>");

      const like = { ...reply, kind: "like" as const, sourceUrl: "https://social.example/likes/1" };
      expect(await recordResponse(db, like)).toBe("stored");
      const [liked] = await db
        .select()
        .from(socialResponses)
        .where(eq(socialResponses.sourceUrl, like.sourceUrl));
      expect(liked!.status).toBe("approved");
      expect(await removeResponses(db, like.sourceUrl)).toBe(1);
      expect(await removeResponses(db, like.sourceUrl)).toBe(0);
    });

    it("drops responses to unpublished posts and from blocked senders", async () => {
      const db = database.db;
      const base = {
        source: "webmention" as const,
        kind: "mention" as const,
        sourceUrl: "https://blog.other/post",
      };
      expect(await recordResponse(db, { ...base, postId: draft })).toBe("no-post");
      await blockDomain(db, "blog.other");
      expect(await recordResponse(db, { ...base, postId: published })).toBe("blocked");
      await blockActor(db, "https://social.example/users/troll");
      expect(
        await recordResponse(db, {
          ...base,
          sourceUrl: "https://fine.example/p",
          authorUrl: "https://social.example/users/troll",
          postId: published,
        }),
      ).toBe("blocked");
      expect(await db.select().from(socialResponses)).toEqual([]);
    });

    it("names the published post a URL of this site points at", async () => {
      const db = database.db;
      expect(await postIdForUrl(db, SITE, `${SITE}/blog/out`)).toBe(published);
      expect(await postIdForUrl(db, SITE, `${SITE}/blog/out/`)).toBe(published);
      expect(await postIdForUrl(db, SITE, `${SITE}/blog/${published}`)).toBe(published);
      expect(await postIdForUrl(db, SITE, `${SITE}/ap/posts/${published}`)).toBe(published);
      expect(await postIdForUrl(db, SITE, `${SITE}/blog/out?utm=1#x`)).toBe(published);
      expect(await postIdForUrl(db, SITE, `${SITE}/blog/draft`)).toBeNull();
      expect(await postIdForUrl(db, SITE, `${SITE}/ap/posts/out`)).toBeNull();
      expect(await postIdForUrl(db, SITE, `${SITE}/blog/99999999999`)).toBeNull();
      expect(await postIdForUrl(db, SITE, `https://elsewhere.example/blog/out`)).toBeNull();
      expect(await postIdForUrl(db, SITE, `${SITE}/`)).toBeNull();
      expect(await postIdForUrl(db, SITE, "nonsense")).toBeNull();
    });
  });
}

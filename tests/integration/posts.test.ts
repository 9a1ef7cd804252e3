import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  allPostDates,
  getPost,
  listPostsPage,
  listRecentPosts,
} from "../../app/features/posts/read.server";
import { likePattern } from "../../app/features/posts/search.server";
import { blogPosts, blogStats } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";

/** Inserts `n` posts, post i created i hours after a fixed start (so post n is the newest). */
async function insertPosts(
  db: TestDatabase["db"],
  n: number,
  extra: Partial<typeof blogPosts.$inferInsert> = {},
) {
  if (n === 0) return;
  await db.insert(blogPosts).values(
    Array.from({ length: n }, (_, i) => ({
      title: `Post ${i + 1}`,
      description: `Description ${i + 1}`,
      content: `<p>Body ${i + 1}</p>`,
      createdAt: new Date(Date.UTC(2026, 0, 1, i)),
      ...extra,
    })),
  );
}

const titles = (page: { posts: { title: string }[] }) => page.posts.map((p) => p.title);

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`posts on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it.each([
      [0, 0, [0]],
      [1, 1, [1]],
      [5, 1, [5]],
      [6, 2, [5, 1]],
      [11, 3, [5, 5, 1]],
    ])("with %i posts there are %i pages holding %j", async (n, pages, sizes) => {
      await insertPosts(database.db, n);
      const first = await listPostsPage(database.db, { page: 1, search: "" });
      expect(first.total).toBe(n);
      expect(first.pageCount).toBe(pages);
      const seen: string[] = [];
      for (let page = 1; page <= Math.max(pages, 1); page++) {
        const result = await listPostsPage(database.db, { page, search: "" });
        expect(result.posts.length).toBe(sizes[page - 1]);
        seen.push(...titles(result));
      }
      // Newest first, every post exactly once.
      expect(seen).toEqual(Array.from({ length: n }, (_, i) => `Post ${n - i}`));
      const past = await listPostsPage(database.db, { page: pages + 1, search: "" });
      expect(past.posts).toEqual([]);
      expect(past.pageCount).toBe(pages);
    });

    it("orders posts created at the same instant by id, newest id first, across pages", async () => {
      await insertPosts(database.db, 7, { createdAt: new Date("2026-05-01T00:00:00.123456Z") });
      const page1 = await listPostsPage(database.db, { page: 1, search: "" });
      const page2 = await listPostsPage(database.db, { page: 2, search: "" });
      expect([...page1.posts, ...page2.posts].map((p) => p.id)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    });

    it("keeps pages right after inserts, deletes and a changed publication date (from this or another instance)", async () => {
      await insertPosts(database.db, 11);
      expect(titles(await listPostsPage(database.db, { page: 2, search: "" }))).toEqual([
        "Post 6",
        "Post 5",
        "Post 4",
        "Post 3",
        "Post 2",
      ]);
      await database.db.insert(blogPosts).values({ title: "Newest", content: "<p>x</p>" });
      expect(titles(await listPostsPage(database.db, { page: 2, search: "" }))).toEqual([
        "Post 7",
        "Post 6",
        "Post 5",
        "Post 4",
        "Post 3",
      ]);
      await database.db.delete(blogPosts).where(eq(blogPosts.title, "Post 6"));
      const afterDelete = await listPostsPage(database.db, { page: 2, search: "" });
      expect(titles(afterDelete)).toEqual(["Post 7", "Post 5", "Post 4", "Post 3", "Post 2"]);
      expect(afterDelete.total).toBe(11);
      await database.db
        .update(blogPosts)
        .set({ publishedAt: new Date("2020-01-01T00:00:00Z") })
        .where(eq(blogPosts.title, "Post 7"));
      expect(titles(await listPostsPage(database.db, { page: 3, search: "" }))).toEqual(["Post 7"]);
    });

    it("keeps the stored count exact through bulk writes and TRUNCATE", async () => {
      await insertPosts(database.db, 30);
      await database.db.delete(blogPosts).where(sql`${blogPosts.id} % 3 = 0`);
      expect((await listPostsPage(database.db, { page: 1, search: "" })).total).toBe(20);
      await database.db.execute(sql`truncate blog_posts cascade`);
      expect((await listPostsPage(database.db, { page: 1, search: "" })).total).toBe(0);
    });

    it("leaves the stored count and version alone when a write touches no post", async () => {
      await insertPosts(database.db, 3);
      const stats = () => database.db.select().from(blogStats);
      const before = await stats();
      await database.db.delete(blogPosts).where(eq(blogPosts.id, 999_999));
      await database.db.insert(blogPosts).select(
        database.db
          .select()
          .from(blogPosts)
          .where(sql`false`),
      );
      expect(await stats()).toEqual(before);
      await database.db.delete(blogPosts).where(eq(blogPosts.title, "Post 1"));
      expect(await stats()).not.toEqual(before);
    });

    it("searches title, description and body, case-insensitively, title first, then description, then body", async () => {
      await database.db.insert(blogPosts).values([
        {
          title: "PostgreSQL Indexes",
          description: "b-tree",
          content: "x",
          createdAt: new Date("2026-01-01"),
        },
        {
          title: "Redis",
          description: "Caching with postgresql next to it",
          content: "x",
          createdAt: new Date("2026-01-02"),
        },
        {
          title: "Docker",
          description: null,
          content: "postgresql only in the body",
          createdAt: new Date("2026-01-03"),
        },
      ]);
      const result = await listPostsPage(database.db, { page: 1, search: "POSTGRESQL" });
      expect(titles(result)).toEqual(["PostgreSQL Indexes", "Redis", "Docker"]);
      expect(result.total).toBe(3);
      expect(result.pageCount).toBe(1);
      expect((await listPostsPage(database.db, { page: 1, search: "kubernetes" })).posts).toEqual(
        [],
      );
    });

    it("treats %, _, backslashes and quotes in a search as plain characters", async () => {
      await database.db.insert(blogPosts).values([
        { title: "100% uptime", content: "x" },
        { title: "1000 uptime", content: "x" },
        { title: "snake_case names", content: "x" },
        { title: "snakeXcase names", content: "x" },
        { title: "C:\\path\\to", content: "x" },
        { title: 'It\'s "quoted"', content: "x" },
      ]);
      const search = async (text: string) =>
        titles(await listPostsPage(database.db, { page: 1, search: text }));
      expect(await search("100%")).toEqual(["100% uptime"]);
      expect(await search("%")).toEqual(["100% uptime"]);
      expect(await search("snake_case")).toEqual(["snake_case names"]);
      expect(await search("\\path")).toEqual(["C:\\path\\to"]);
      expect(await search('it\'s "QUOTED"')).toEqual(['It\'s "quoted"']);
      expect(await search("'; drop table blog_posts; --")).toEqual([]);
      expect((await listPostsPage(database.db, { page: 1, search: "" })).total).toBe(6);
    });

    it("matches unicode text, with case folding beyond ASCII", async () => {
      await database.db.insert(blogPosts).values([
        { title: "Café in Zürich", content: "x" },
        { title: "日本語のメモ", description: "emoji 🚀 launch", content: "x" },
      ]);
      const search = async (text: string) =>
        titles(await listPostsPage(database.db, { page: 1, search: text }));
      expect(await search("CAFÉ")).toEqual(["Café in Zürich"]);
      expect(await search("zürich")).toEqual(["Café in Zürich"]);
      expect(await search("本語")).toEqual(["日本語のメモ"]);
      expect(await search("🚀")).toEqual(["日本語のメモ"]);
    });

    it("pages search results and answers an empty page past the last", async () => {
      await insertPosts(database.db, 12);
      const page3 = await listPostsPage(database.db, { page: 3, search: "post" });
      expect(page3.total).toBe(12);
      expect(page3.pageCount).toBe(3);
      expect(titles(page3)).toEqual(["Post 2", "Post 1"]);
      expect((await listPostsPage(database.db, { page: 4, search: "post" })).posts).toEqual([]);
    });

    it("uses the trigram indexes for a search", async () => {
      await insertPosts(database.db, 50);
      // Make the planner prefer indexes even on a small table, as it does on a large one.
      await database.db.execute(sql`set enable_seqscan = off`);
      const plan = (await database.db.execute(
        sql`explain select id from blog_posts where title ilike ${likePattern("post 4")} or description ilike ${likePattern("post 4")}`,
      )) as unknown as { rows: Record<string, string>[] };
      const text = plan.rows.map((r) => Object.values(r).join(" ")).join("\n");
      expect(text).toContain("blog_posts_title_trgm_idx");
      expect(text).toContain("blog_posts_description_trgm_idx");
      await database.db.execute(sql`set enable_seqscan = on`);
      // Writes go straight into the index: no pending list for a missing autovacuum to clear.
      const options = (await database.db.execute(
        sql`select reloptions::text as o from pg_class where relname like 'blog_posts_%_trgm_idx'`,
      )) as unknown as { rows: { o: string }[] };
      expect(options.rows.map((r) => r.o)).toEqual(["{fastupdate=false}", "{fastupdate=false}"]);
    });

    it("reads one post, the newest for the feed, and every post for the sitemap in batches", async () => {
      await insertPosts(database.db, 23);
      const post = await getPost(database.db, 3);
      expect(post).toMatchObject({
        id: 3,
        title: "Post 3",
        content: "<p>Body 3</p>",
        contentEn: null,
      });
      expect(await getPost(database.db, 999)).toBeNull();
      expect((await listRecentPosts(database.db, 20)).map((p) => p.id).slice(0, 3)).toEqual([
        23, 22, 21,
      ]);
      const slugs: string[] = [];
      for await (const entry of allPostDates(database.db, 5)) {
        expect(entry.updatedAt).toBeInstanceOf(Date);
        slugs.push(entry.slug);
      }
      expect(slugs).toEqual(Array.from({ length: 23 }, (_, i) => `post-${23 - i}`));
    });
  });
}

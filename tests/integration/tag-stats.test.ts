import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  listTagPage,
  listTags,
  RELATED_CANDIDATES_PER_TAG,
  relatedPosts,
} from "../../app/features/posts/read.server";
import { createPost, updatePost, type PostWriteInput } from "../../app/features/posts/write.server";
import { PAGE_SIZE } from "../../app/lib/constants";
import { drivers, queryRows, skipReason, type TestDatabase } from "./databases";

const write = (fields: Partial<PostWriteInput>): PostWriteInput => ({
  title: "A post",
  description: "",
  content: "<p>Body</p>",
  slug: null,
  tags: null,
  publish: { mode: "now" },
  ...fields,
});
const day = (n: number) => ({
  mode: "at" as const,
  at: new Date(Date.UTC(2026, 0, 1) + n * 864e5),
});
const titles = (page: { posts: { title: string }[] }) => page.posts.map((p) => p.title);

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`flat tag pages on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(() => database.dispose());

    /** tag_stats against a count of the rows themselves. */
    async function expectExactCounts() {
      const kept = await queryRows<{ tag: string; post_count: number }>(
        database.db,
        sql`select tag, post_count from tag_stats where post_count <> 0 order by tag`,
      );
      const counted = await queryRows<{ tag: string; post_count: number }>(
        database.db,
        sql`select tag, count(*)::int as post_count from post_tags
            where listed_at is not null group by tag order by tag`,
      );
      expect(kept).toEqual(counted);
    }

    it("keeps each tag's count exact through publishing, re-dating, retagging, bulk writes and deletes", async () => {
      const db = database.db;
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const post = await createPost(
          db,
          write({ title: `P${i}`, tags: ["a", i % 2 ? "b" : "c"], publish: day(i) }),
        );
        ids.push(post.id);
      }
      await createPost(db, write({ title: "Draft", tags: ["a"], publish: { mode: "draft" } }));
      await expectExactCounts();
      expect(await listTags(db)).toEqual([
        { tag: "a", count: 6 },
        { tag: "b", count: 3 },
        { tag: "c", count: 3 },
      ]);
      await updatePost(
        db,
        ids[0]!,
        write({ title: "P0", tags: ["a", "c"], publish: { mode: "draft" } }),
      );
      await updatePost(db, ids[1]!, write({ title: "P1", tags: ["d"], publish: day(30) }));
      await expectExactCounts();
      // One statement over many rows (a bulk unpublish) and a delete.
      await db.execute(
        sql`update blog_posts set status = 'draft' where id in (${ids[2]!}, ${ids[3]!})`,
      );
      await db.execute(sql`delete from blog_posts where id = ${ids[4]!}`);
      await expectExactCounts();
      expect(await listTags(db)).toEqual([
        { tag: "a", count: 1 },
        { tag: "b", count: 1 },
        { tag: "d", count: 1 },
      ]);
      await db.execute(sql`truncate post_tags`);
      expect(await listTags(db)).toEqual([]);
    });

    it("pages a tag from cached boundaries that follow every change to its list", async () => {
      const db = database.db;
      const count = PAGE_SIZE * 3 + 2;
      for (let i = 1; i <= count; i++) {
        await createPost(db, write({ title: `T${i}`, tags: ["x"], publish: day(i * 2) }));
      }
      const expectPages = async (newestFirst: string[]) => {
        const pages = Math.ceil(newestFirst.length / PAGE_SIZE);
        for (let page = 1; page <= pages; page++) {
          const read = await listTagPage(db, { tag: "x", page });
          expect(read).toMatchObject({ total: newestFirst.length, pageCount: pages });
          expect(titles(read)).toEqual(newestFirst.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE));
        }
        expect((await listTagPage(db, { tag: "x", page: pages + 1 })).posts).toEqual([]);
      };
      const order = Array.from({ length: count }, (_, i) => `T${count - i}`);
      await expectPages(order);
      // A post published between two others shifts every later page by one.
      await createPost(db, write({ title: "Between", tags: ["x"], publish: day(9) }));
      const between = [...order.slice(0, count - 4), "Between", ...order.slice(count - 4)];
      await expectPages(between);
      // Unpublishing the newest shifts them back the other way.
      const [newest] = await queryRows<{ id: number }>(
        db,
        sql`select id from blog_posts where title = ${`T${count}`}`,
      );
      await updatePost(
        db,
        newest!.id,
        write({ title: `T${count}`, tags: ["x"], publish: { mode: "draft" } }),
      );
      await expectPages(between.slice(1));
    });

    it("relates posts among each tag's newest candidates, however many posts a tag holds", async () => {
      const db = database.db;
      const many = RELATED_CANDIDATES_PER_TAG + 20;
      for (let i = 1; i <= many; i++) {
        await db.execute(sql`insert into blog_posts (title, content, status, published_at)
          values (${`Big ${i}`}, '<p>x</p>', 'published', ${new Date(Date.UTC(2025, 0, 1) + i * 6e4).toISOString()}::timestamptz)`);
      }
      await db.execute(
        sql`insert into post_tags (post_id, tag, position) select id, 'big', 0 from blog_posts`,
      );
      const main = await createPost(
        db,
        write({ title: "Main", tags: ["big", "rare"], publish: day(1) }),
      );
      await createPost(db, write({ title: "Shares both", tags: ["big", "rare"], publish: day(0) }));
      const related = await relatedPosts(db, main.id);
      expect(related.map((r) => r.title)).toEqual([
        "Shares both",
        `Big ${many}`,
        `Big ${many - 1}`,
      ]);
    });
  });
}

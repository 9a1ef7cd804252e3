import { readFileSync, readdirSync } from "node:fs";

import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  dryRun,
  importParsers,
  importedPostPath,
  runImport,
} from "../../app/features/import/index.server";
import { blogPosts, postTags } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";

// Real exports (tests/fixtures/imports/README.md): WordPress's Theme Unit Test data, trimmed,
// and the Medium export posts of Ghost's Medium importer.
const F = "tests/fixtures/imports";
const { parseMedium, parseWordPress } = await importParsers();
const wxr = () =>
  parseWordPress(readFileSync(`${F}/wordpress/theme-unit-test-trimmed.xml`, "utf8"));
const medium = () =>
  parseMedium(
    readdirSync(`${F}/medium/posts`)
      .sort()
      .map((name) => ({ name, html: readFileSync(`${F}/medium/posts/${name}`, "utf8") })),
  );
const none = new URLSearchParams();

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`imports on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(() => database.dispose());

    const postCount = async () =>
      (await database.db.select({ id: blogPosts.id }).from(blogPosts)).length;

    it("the dry run reports and changes nothing; a taken slug shows as a collision", async () => {
      const db = database.db;
      await db
        .insert(blogPosts)
        .values({ title: "Mine", slug: "draft", content: "<p>x</p>", status: "published" });
      const plan = await dryRun(db, wxr());
      expect(plan.counts).toEqual({ posts: 7, published: 5, drafts: 1, scheduled: 1, images: 1 });
      expect(plan.collisions).toEqual([{ title: "Draft", wanted: "draft", slug: "draft-2" }]);
      expect(await postCount()).toBe(1);
    });

    it("lets other work run between posts: a reader's request is not queued behind the whole import", async () => {
      let done = 0;
      const seen = new Set<number>();
      let running = true;
      const tick = () => {
        seen.add(done);
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      await runImport(database.db, wxr(), (d) => void (done = d), { images: false });
      running = false;
      // The event loop had a turn after each post, not only once the import was over.
      for (let d = 1; d < 7; d++) expect(seen.has(d), `after post ${d}`).toBe(true);
    });

    it("imports through the write path: states, dates, tags, clean content, highlighted code", async () => {
      const db = database.db;
      const progress: string[] = [];
      // Images are left to their own test (tests/integration/import-images.test.ts).
      const result = await runImport(
        db,
        wxr(),
        (done, total) => {
          progress.push(`${done}/${total}`);
        },
        { images: false },
      );
      expect(result.failed).toEqual([]);
      expect(result.created.map((p) => p.slug)).toEqual([
        "text-category-blocks",
        "blocks-formatting",
        "blocks-widgets",
        "post-format-image-caption",
        "post-format-gallery",
        "draft",
        "scheduled",
      ]);
      expect(progress.at(-1)).toBe("7/7");
      const rows = await db.select().from(blogPosts);
      const bySlug = (slug: string) => rows.find((r) => r.slug === slug)!;
      expect(bySlug("draft").status).toBe("draft");
      expect(bySlug("scheduled").status).toBe("scheduled");
      expect(bySlug("blocks-formatting").status).toBe("published");
      expect(bySlug("blocks-formatting").publishedAt?.toISOString()).toBe(
        "2018-11-01T06:03:22.000Z",
      );
      // The export's last change is the post's (post_modified_gmt); without one, the import's time.
      expect(bySlug("text-category-blocks").updatedAt.toISOString()).toBe(
        "2023-01-16T07:17:27.000Z",
      );
      expect(bySlug("blocks-formatting").updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
      // The block editor's comments and the shortcodes left nothing; the code block is highlighted.
      for (const row of rows) expect(row.content).not.toMatch(/<!--|\[\/?(?:caption|gallery)/);
      expect(bySlug("blocks-formatting").content).toMatch(/<pre class="shiki/);
      // The caption's image is not brought here yet: it stays a link to where it was.
      expect(bySlug("post-format-image-caption").content).toMatch(
        /^<p><a href="https:\/\/wpthemetestdata\.files\.wordpress\.com\/2008\/06\/100_5478\.jpg\?w=604"[^>]*>Bell on Wharf<\/a><br \/?><em>Bell on wharf in San Francisco<\/em><\/p>$/,
      );
      const tags = await db
        .select()
        .from(postTags)
        .where(eq(postTags.postId, bySlug("blocks-formatting").id));
      expect(tags.map((t) => t.tag).sort()).toEqual(["block", "content", "formatting"]);
    });

    it("importing the same file twice creates nothing new", async () => {
      const db = database.db;
      await runImport(db, wxr(), undefined, { images: false });
      const again = await runImport(db, wxr(), undefined, { images: false });
      expect(again.created).toEqual([]);
      expect(again.skipped.map((s) => s.reason)).toEqual(Array(7).fill("imported before"));
      expect(await postCount()).toBe(7);
      expect((await dryRun(db, wxr())).counts.posts).toBe(0);
    });

    it("old URLs find their published posts: ?p=, the dated permalink, Medium's two forms", async () => {
      const db = database.db;
      await runImport(db, wxr(), undefined, { images: false });
      await runImport(db, medium(), undefined, { images: false });
      expect(await importedPostPath(db, "/", new URLSearchParams("p=1732"))).toBe(
        "blocks-formatting",
      );
      expect(await importedPostPath(db, "/2018/11/02/block-category-formatting/", none)).toBe(
        "blocks-formatting",
      );
      expect(await importedPostPath(db, "/2018/11/02/block-category-formatting", none)).toBe(
        "blocks-formatting",
      );
      expect(await importedPostPath(db, "/@JoeBloggs/testpost-efefef12121212", none)).toBe(
        "testpost",
      );
      expect(await importedPostPath(db, "/p/abcd1234", none)).toBe("testpost");
      // Drafts stay hidden: their old URLs answer nothing.
      expect(await importedPostPath(db, "/", new URLSearchParams("p=1164"))).toBeNull();
      expect(await importedPostPath(db, "/p/ababab12121212", none)).toBeNull();
      expect(await importedPostPath(db, "/", new URLSearchParams("p=99999"))).toBeNull();
    });
  });
}

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { postSchema } from "../../app/features/posts/schema";
import { postSlugOf } from "../../app/features/posts/slug";
import { MARK_END, MARK_START } from "../../app/features/posts/search-query";
import {
  allPostDates,
  findPostByPath,
  listPostsPage,
  listRecentPosts,
  listTagPage,
  listTags,
  relatedPosts,
} from "../../app/features/posts/read.server";
import {
  createPost,
  nextScheduledIn,
  publishDuePosts,
  SlugTakenError,
  updatePost,
  type PostWriteInput,
} from "../../app/features/posts/write.server";
import { openDatabase, PGLITE_EXTENSIONS } from "../../database/db.server";
import { startPublisher } from "../../server/publisher";
import {
  drivers,
  freshPostgresUrl,
  MIGRATIONS,
  queryRows,
  skipReason,
  type TestDatabase,
} from "./databases";

const base: PostWriteInput = {
  title: "A post",
  description: "",
  content: "<p>Body</p>",
  slug: null,
  tags: null,
  publish: { mode: "now" },
};
const write = (fields: Partial<PostWriteInput>): PostWriteInput => ({ ...base, ...fields });
const titles = (page: { posts: { title: string }[] }) => page.posts.map((p) => p.title);
const search = (db: TestDatabase["db"], text: string) =>
  listPostsPage(db, { page: 1, search: text });

/** Titles a blog search finds, best first. */
async function found(db: TestDatabase["db"], text: string) {
  return titles(await search(db, text));
}

const marked = (text: string) => text.replaceAll(MARK_START, "[").replaceAll(MARK_END, "]");

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`publishing on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("keeps drafts and scheduled posts out of every list, search, tag, feed and sitemap", async () => {
      const tags = ["postgres"];
      await createPost(database.db, write({ title: "Public words", tags }));
      await createPost(
        database.db,
        write({ title: "Draft words", tags, publish: { mode: "draft" } }),
      );
      await createPost(
        database.db,
        write({
          title: "Scheduled words",
          tags,
          publish: { mode: "at", at: new Date(Date.now() + 3_600_000) },
        }),
      );
      const db = database.db;
      const list = await listPostsPage(db, { page: 1, search: "" });
      expect(titles(list)).toEqual(["Public words"]);
      expect(list.total).toBe(1);
      expect(await found(db, "words")).toEqual(["Public words"]);
      expect(await found(db, "draft")).toEqual([]);
      expect(titles(await listTagPage(db, { tag: "postgres", page: 1 }))).toEqual(["Public words"]);
      expect(await listTags(db)).toEqual([{ tag: "postgres", count: 1 }]);
      expect((await listRecentPosts(db, 20)).map((p) => p.title)).toEqual(["Public words"]);
      expect((await listRecentPosts(db, 20, "postgres")).map((p) => p.title)).toEqual([
        "Public words",
      ]);
      const slugs: string[] = [];
      for await (const entry of allPostDates(db)) slugs.push(entry.slug);
      expect(slugs).toEqual(["public-words"]);
      // The owner still reaches them at their URL (the route decides who may see them).
      expect((await findPostByPath(db, "draft-words"))?.post.status).toBe("draft");
      expect((await findPostByPath(db, "scheduled-words"))?.post.status).toBe("scheduled");
    });

    it("publishes, unpublishes and publishes again, keeping the first date and the count exact", async () => {
      const { id } = await createPost(database.db, write({ publish: { mode: "draft" } }));
      const post = async () => (await findPostByPath(database.db, String(id)))!.post;
      expect((await post()).publishedAt).toBeNull();
      await updatePost(database.db, id, write({ publish: { mode: "now" } }));
      const first = (await post()).publishedAt!;
      expect((await listPostsPage(database.db, { page: 1, search: "" })).total).toBe(1);
      await updatePost(database.db, id, write({ publish: { mode: "draft" } }));
      expect((await post()).status).toBe("draft");
      expect((await listPostsPage(database.db, { page: 1, search: "" })).total).toBe(0);
      await updatePost(database.db, id, write({ publish: { mode: "now" } }));
      expect((await post()).publishedAt).toEqual(first);
      // An edit that says nothing of the state keeps it.
      await updatePost(database.db, id, write({ title: "Edited", publish: { mode: "keep" } }));
      expect(await post()).toMatchObject({ status: "published", publishedAt: first });
      expect((await listPostsPage(database.db, { page: 1, search: "" })).total).toBe(1);
    });

    it("schedules a post, says when it is due, and publishes it once when its time comes", async () => {
      const at = new Date(Date.now() + 60_000);
      const { id } = await createPost(database.db, write({ publish: { mode: "at", at } }));
      expect((await findPostByPath(database.db, String(id)))?.post).toMatchObject({
        status: "scheduled",
        publishedAt: at,
      });
      const due = (await nextScheduledIn(database.db))!;
      expect(due).toBeGreaterThan(55_000);
      expect(due).toBeLessThanOrEqual(60_000);
      expect(await publishDuePosts(database.db)).toEqual([]);
      await database.db.execute(
        sql`update blog_posts set published_at = now() - interval '1 second' where id = ${id}`,
      );
      expect(await publishDuePosts(database.db)).toEqual([id]);
      expect(await publishDuePosts(database.db)).toEqual([]);
      expect(await nextScheduledIn(database.db)).toBeNull();
      expect((await listPostsPage(database.db, { page: 1, search: "" })).total).toBe(1);
      // A time already past publishes at once, with that date.
      const past = new Date("2025-03-01T10:00:00Z");
      const backdated = await createPost(database.db, write({ publish: { mode: "at", at: past } }));
      expect((await findPostByPath(database.db, backdated.slug))?.post).toMatchObject({
        status: "published",
        publishedAt: past,
      });
    });

    it("the publisher makes a scheduled post public at its time with no call at all", async () => {
      const publisher = startPublisher(database.db);
      try {
        await publisher.settled();
        // Far enough ahead that writing the post and the notice's round on a busy machine (two
        // cores running the other test files) end before it: the check below needs it unpublished.
        const at = new Date(Date.now() + 3000);
        const { slug } = await createPost(database.db, write({ publish: { mode: "at", at } }));
        // Another instance's write reaches this one as a change notice.
        publisher.changed();
        await publisher.settled();
        expect((await listPostsPage(database.db, { page: 1, search: "" })).total).toBe(0);
        const deadline = Date.now() + 10_000;
        while ((await listPostsPage(database.db, { page: 1, search: "" })).total === 0) {
          if (Date.now() > deadline) throw new Error("not published within 10 s");
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const post = (await findPostByPath(database.db, slug))!.post;
        expect(post.status).toBe("published");
        // Published at its time, not later (the database's clock; a timer's slack at most).
        expect(Date.now() - at.getTime()).toBeLessThan(5_000);
      } finally {
        await publisher.stop();
      }
    });

    it("makes slugs from titles: ASCII, accents folded, unique, never digits alone or a reserved word", async () => {
      const slugOf = async (title: string) =>
        (await createPost(database.db, write({ title }))).slug;
      expect(await slugOf("Migración rápida")).toBe("migracion-rapida");
      expect(await slugOf("Migración rápida")).toBe("migracion-rapida-2");
      expect(await slugOf("Migración Rápida!")).toBe("migracion-rapida-3");
      expect(await slugOf("Straße, Æsir & Øre")).toBe("strasse-aesir-ore");
      expect(await slugOf("2024")).toBe("post-2024");
      expect(await slugOf("New")).toBe("new-post");
      expect(await slugOf("Tags")).toBe("tags-post");
      expect(await slugOf("¡¿?!")).toBe("post");
      expect(await slugOf("日本語")).toBe("post-2");
      expect(await slugOf(`${"palabra ".repeat(20)}final`)).toBe(
        postSlugOf(`${"palabra ".repeat(20)}final`),
      );
    });

    it("the database's slug of a title is the editor's (postSlugOf), for every title tried", async () => {
      const titlesTried = [
        "Migración rápida a PostgreSQL 16",
        "¿Qué es un índice GIN?",
        "Ñandú, pingüino y cigüeña",
        "Crème brûlée & café — notes",
        "Łódź, Þórr, Đorđe, ﬁne ligature",
        "  --Leading and trailing--  ",
        "C++ vs. C#: 10 lessons",
        "12345",
        "new",
        "x".repeat(100),
        `${"abc-".repeat(30)}end`,
        "Zürich über alles",
        "Ａｌｐｈａ full-width",
        "emoji 🚀 launch",
      ];
      for (const title of titlesTried) {
        const [row] = await queryRows<{ slug: string }>(
          database.db,
          sql`select blog_slug_of(${title}) as slug`,
        );
        expect(row!.slug, title).toBe(postSlugOf(title));
      }
    });

    it("an id and every old slug lead to the current slug; no other post may take them", async () => {
      const a = await createPost(database.db, write({ title: "First title" }));
      expect(a.slug).toBe("first-title");
      await updatePost(database.db, a.id, write({ slug: "second" }));
      await updatePost(database.db, a.id, write({ slug: "third" }));
      for (const segment of [String(a.id), "first-title", "second"]) {
        expect(await findPostByPath(database.db, segment)).toMatchObject({
          moved: true,
          post: { id: a.id, slug: "third" },
        });
      }
      expect(await findPostByPath(database.db, "third")).toMatchObject({ moved: false });
      expect(await findPostByPath(database.db, "Third")).toMatchObject({
        moved: true,
        post: { slug: "third" },
      });
      expect(await findPostByPath(database.db, "nothing-here")).toBeNull();
      expect(await findPostByPath(database.db, "99999999999")).toBeNull();
      // Another post may not take a slug this one has or had, set by hand or made from a title.
      const b = await createPost(database.db, write({ title: "Other" }));
      await expect(updatePost(database.db, b.id, write({ slug: "second" }))).rejects.toThrow(
        SlugTakenError,
      );
      await expect(createPost(database.db, write({ slug: "third" }))).rejects.toThrow(
        SlugTakenError,
      );
      expect((await createPost(database.db, write({ title: "First title" }))).slug).toBe(
        "first-title-2",
      );
      // The post itself may go back to an old slug; the one it leaves still leads to it.
      await updatePost(database.db, a.id, write({ slug: "first-title" }));
      expect(await findPostByPath(database.db, "third")).toMatchObject({
        moved: true,
        post: { slug: "first-title" },
      });
      // Nothing was half-written by the refused saves.
      expect((await findPostByPath(database.db, String(b.id)))?.post.slug).toBe("other");
    });

    it("lists a tag's posts with the blog's paging, and counts tags", async () => {
      for (let i = 1; i <= 7; i++) {
        await createPost(
          database.db,
          write({
            title: `Tagged ${i}`,
            tags: i % 2 === 0 ? ["postgres", "sql"] : ["postgres"],
            publish: { mode: "at", at: new Date(Date.UTC(2026, 0, i)) },
          }),
        );
      }
      const page1 = await listTagPage(database.db, { tag: "postgres", page: 1 });
      expect(page1).toMatchObject({ total: 7, pageCount: 2 });
      expect(titles(page1)).toEqual(["Tagged 7", "Tagged 6", "Tagged 5", "Tagged 4", "Tagged 3"]);
      expect(page1.posts[1]!.tags).toEqual(["postgres", "sql"]);
      expect(titles(await listTagPage(database.db, { tag: "postgres", page: 2 }))).toEqual([
        "Tagged 2",
        "Tagged 1",
      ]);
      expect((await listTagPage(database.db, { tag: "postgres", page: 3 })).posts).toEqual([]);
      expect((await listTagPage(database.db, { tag: "nope", page: 1 })).total).toBe(0);
      expect(await listTags(database.db)).toEqual([
        { tag: "postgres", count: 7 },
        { tag: "sql", count: 3 },
      ]);
      // Unpublishing takes a post off its tags' lists and counts; new tags replace the old.
      const [six] = await queryRows<{ id: number }>(
        database.db,
        sql`select id from blog_posts where title = 'Tagged 6'`,
      );
      await updatePost(
        database.db,
        six!.id,
        write({ title: "Tagged 6", publish: { mode: "draft" } }),
      );
      expect(await listTags(database.db)).toEqual([
        { tag: "postgres", count: 6 },
        { tag: "sql", count: 2 },
      ]);
      await updatePost(database.db, six!.id, write({ tags: ["go"], publish: { mode: "now" } }));
      expect(await listTags(database.db)).toEqual(
        [
          { tag: "postgres", count: 6 },
          { tag: "go", count: 1 },
          { tag: "sql", count: 2 },
        ].sort((x, y) => y.count - x.count || x.tag.localeCompare(y.tag)),
      );
    });

    it("relates posts by shared tags, then recency, never itself or an unpublished post", async () => {
      const at = (day: number) => ({ mode: "at" as const, at: new Date(Date.UTC(2026, 1, day)) });
      const main = await createPost(
        database.db,
        write({ title: "Main", tags: ["a", "b", "c"], publish: at(1) }),
      );
      await createPost(
        database.db,
        write({ title: "Shares one, newest", tags: ["a"], publish: at(9) }),
      );
      await createPost(
        database.db,
        write({ title: "Shares three", tags: ["a", "b", "c"], publish: at(2) }),
      );
      await createPost(
        database.db,
        write({ title: "Shares two", tags: ["b", "c"], publish: at(3) }),
      );
      await createPost(
        database.db,
        write({ title: "Shares one, older", tags: ["c"], publish: at(4) }),
      );
      await createPost(
        database.db,
        write({ title: "Draft sharing all", tags: ["a", "b", "c"], publish: { mode: "draft" } }),
      );
      expect((await relatedPosts(database.db, main.id)).map((p) => p.title)).toEqual([
        "Shares three",
        "Shares two",
        "Shares one, newest",
      ]);
      // A post with no tags is offered the newest others.
      const lone = await createPost(database.db, write({ title: "Lone", publish: at(5) }));
      expect((await relatedPosts(database.db, lone.id)).map((p) => p.title)).toEqual([
        "Shares one, newest",
        "Shares one, older",
        "Shares two",
      ]);
    });

    describe("full-text search", () => {
      beforeEach(async () => {
        const posts: [string, string, string][] = [
          [
            "Migración rápida",
            "De MySQL a PostgreSQL",
            "<p>Pasos para migrar sin parar el servicio.</p>",
          ],
          [
            "Caching notes",
            "Where a cache pays",
            "<p>Measured with a <strong>flame</strong>graph and <code>perf</code>.</p>",
          ],
          [
            "Markup only",
            "",
            '<p class="lead">Plain words here.</p><pre><code class="language-ts"><span style="color:#D73A49">const</span><span> x = 1</span></code></pre>',
          ],
          ["Escaping", "", "<p>Write &lt;script&gt; tags as text, and a &amp; b.</p>"],
          ["Weights", "weights in the description", "<p>weights in the body</p>"],
          ["Other", "nothing", "<p>weights, again in the body, and weights once more</p>"],
        ];
        for (const [i, [title, description, content]] of posts.entries()) {
          await createPost(
            database.db,
            write({
              title,
              description,
              content,
              publish: { mode: "at", at: new Date(Date.UTC(2026, 2, i + 1)) },
            }),
          );
        }
      });

      it("finds a word only in the body, and shows where it matched", async () => {
        const result = await search(database.db, "servicio");
        expect(titles(result)).toEqual(["Migración rápida"]);
        expect(marked(result.posts[0]!.match!.snippet)).toContain("el [servicio]");
        expect(marked(result.posts[0]!.match!.title)).toBe("Migración rápida");
      });

      it("is accent-insensitive both ways, and keeps the accents in what it shows", async () => {
        const plain = await search(database.db, "migracion rapida");
        expect(titles(plain)).toEqual(["Migración rápida"]);
        expect(marked(plain.posts[0]!.match!.title)).toBe("[Migración] [rápida]");
        expect(await found(database.db, "PÁSOS")).toEqual(["Migración rápida"]);
      });

      it("reads phrases and prefixes", async () => {
        expect(await found(database.db, '"migrar sin parar"')).toEqual(["Migración rápida"]);
        expect(await found(database.db, '"parar sin migrar"')).toEqual([]);
        expect(await found(database.db, "migr*")).toEqual(["Migración rápida"]);
        expect(await found(database.db, "postgre* pasos")).toEqual(["Migración rápida"]);
        expect(await found(database.db, "flamegraph")).toEqual(["Caching notes"]);
      });

      it("ranks title over description over body, then the newest", async () => {
        expect(await found(database.db, "weights")).toEqual(["Weights", "Other"]);
        const body = await search(database.db, "body");
        expect(titles(body)).toEqual(["Other", "Weights"]);
      });

      it("finds nothing of the markup, only the text; angle brackets in the text are words", async () => {
        for (const word of [
          "class",
          "lead",
          "span",
          "style",
          "color",
          "strong",
          "d73a49",
          "language",
        ]) {
          expect(await found(database.db, word), word).toEqual([]);
        }
        expect(await found(database.db, "const")).toEqual(["Markup only"]);
        const escaped = await search(database.db, "<script>");
        expect(titles(escaped)).toEqual(["Escaping"]);
        // The snippet is the post's text: its brackets come back as text, for React to escape.
        expect(marked(escaped.posts[0]!.match!.snippet)).toContain("Write <[script]> tags");
      });

      it("shows a matching title whole, short words first too, with its matches marked", async () => {
        await createPost(
          database.db,
          write({ title: "Tom & Jerry <3 100% uptime, as we did it", description: "A cartoon" }),
        );
        const result = await search(database.db, "100% uptime");
        expect(titles(result)).toEqual(["Tom & Jerry <3 100% uptime, as we did it"]);
        expect(marked(result.posts[0]!.match!.title)).toBe(
          "Tom & Jerry <3 [100]% [uptime], as we did it",
        );
      });

      it("falls back to a part of a title or description for what has no words", async () => {
        await createPost(database.db, write({ title: "100% uptime", description: "🚀 launch" }));
        expect(await found(database.db, "%")).toEqual(["100% uptime"]);
        expect(await found(database.db, "🚀")).toEqual(["100% uptime"]);
        expect((await search(database.db, "%")).posts[0]!.match).toBeNull();
      });

      it("pages matches like the list", async () => {
        for (let i = 0; i < 7; i++) {
          await createPost(database.db, write({ title: `Paged ${i}`, content: "<p>zeta</p>" }));
        }
        const page2 = await listPostsPage(database.db, { page: 2, search: "zeta" });
        expect(page2).toMatchObject({ total: 7, pageCount: 2 });
        expect(page2.posts).toHaveLength(2);
        expect((await listPostsPage(database.db, { page: 3, search: "zeta" })).posts).toEqual([]);
      });

      it("answers from the full-text index", async () => {
        await database.db.execute(sql`set enable_seqscan = off`);
        const plan = await queryRows<Record<string, string>>(
          database.db,
          sql`explain select id from blog_posts where search_vector @@ plainto_tsquery('blog_search', 'weights')`,
        );
        await database.db.execute(sql`set enable_seqscan = on`);
        expect(plan.map((r) => Object.values(r).join(" ")).join("\n")).toContain(
          "blog_posts_search_idx",
        );
      });
    });
  });
}

describe("the post API's publishing fields", () => {
  const parse = (fields: Record<string, unknown>) =>
    postSchema.safeParse({ title: "T", content: "<p>x</p>", ...fields });
  const error = (fields: Record<string, unknown>) => {
    const result = parse(fields);
    return result.success ? null : result.error.issues[0]?.message;
  };

  it("reads tags typed or listed, folded to their URL form, at most five", () => {
    expect(parse({ tags: "PostgreSQL, Node.js,  , postgresql, Café" }).data?.tags).toEqual([
      "postgresql",
      "node-js",
      "cafe",
    ]);
    expect(parse({ tags: ["a", "b", "c", "d", "e"] }).data?.tags).toHaveLength(5);
    expect(error({ tags: ["a", "b", "c", "d", "e", "f"] })).toBe("A post can have at most 5 tags.");
    expect(error({ tags: ["x".repeat(31)] })).toBe(
      `The tag "${"x".repeat(31)}" is longer than 30 characters.`,
    );
    expect(parse({}).data?.tags).toBeNull();
  });

  it("reads a slug typed by hand, folded, and refuses what cannot be one", () => {
    expect(parse({ slug: "Migración Rápida" }).data?.slug).toBe("migracion-rapida");
    expect(parse({ slug: "" }).data?.slug).toBeNull();
    for (const slug of ["123", "new", "tags", "¡!", "a".repeat(81)]) {
      expect(error({ slug }), slug).toMatch(/^The URL may hold/);
    }
  });

  it("reads draft, now, and a time with its offset; refuses anything else", () => {
    expect(parse({ publish: { mode: "draft" } }).data?.publish).toEqual({ mode: "draft" });
    expect(
      parse({ publish: { mode: "at", at: "2026-12-01T09:30:00+01:00" } }).data?.publish,
    ).toEqual({
      mode: "at",
      at: new Date("2026-12-01T08:30:00Z"),
    });
    expect(error({ publish: { mode: "at", at: "tomorrow" } })).toBe(
      "Choose a valid date and time to publish at.",
    );
    expect(error({ publish: { mode: "later" } })).toBe("Publish must be draft, now, or at a time.");
  });
});

describe("migration 0007 on a site that already has posts", () => {
  const until0006 = () => {
    // The migrations as they were before publishing: the same files, the journal cut at 0006.
    const dir = mkdtempSync(path.join(os.tmpdir(), "migrations-0006-"));
    cpSync(MIGRATIONS, dir, { recursive: true });
    const journalPath = path.join(dir, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < "0007");
    writeFileSync(journalPath, JSON.stringify(journal));
    return dir;
  };

  const existing = sql`
    insert into blog_posts (title, description, content, content_en, created_at, updated_at)
    values
      ('Migración rápida', 'd1', '<p>Uno</p>', '<p>One</p>', '2025-01-01T10:00:00Z', '2025-02-01T10:00:00Z'),
      ('Tips', null, '<p>Dos</p>', null, '2025-01-02T10:00:00Z', '2025-01-02T10:00:00Z'),
      ('Tips 2', 'd3', '<p>Tres</p>', null, '2025-01-03T10:00:00Z', '2025-01-03T10:00:00Z'),
      ('Tips', 'd4', '<p>Cuatro</p>', null, '2025-01-04T10:00:00Z', '2025-01-04T10:00:00Z'),
      ('2024', 'd5', '<p>Cinco</p>', null, '2025-01-05T10:00:00Z', '2025-01-05T10:00:00Z')`;

  async function check(handle: Awaited<ReturnType<typeof openDatabase>>) {
    const dir = until0006();
    try {
      await handle.migrate(dir);
      await handle.db.execute(existing);
      const before = await queryRows<Record<string, unknown>>(
        handle.db,
        sql`select id, title, description, content, content_en, created_at::text, updated_at::text from blog_posts order by id`,
      );
      await handle.migrate(MIGRATIONS);
      const after = await queryRows<Record<string, unknown>>(
        handle.db,
        sql`select id, title, description, content, content_en, created_at::text, updated_at::text from blog_posts order by id`,
      );
      expect(after).toEqual(before);
      const moved = await queryRows<{ slug: string; status: string; same: boolean }>(
        handle.db,
        sql`select slug, status, published_at = created_at as same from blog_posts order by id`,
      );
      expect(moved).toEqual([
        { slug: "migracion-rapida", status: "published", same: true },
        { slug: "tips", status: "published", same: true },
        { slug: "tips-2", status: "published", same: true },
        { slug: "tips-3", status: "published", same: true },
        { slug: "post-2024", status: "published", same: true },
      ]);
      const page = await listPostsPage(handle.db, { page: 1, search: "" });
      expect(page.total).toBe(5);
      expect(titles(page)).toEqual(["2024", "Tips", "Tips 2", "Tips", "Migración rápida"]);
      expect(await found(handle.db, "cuatro")).toEqual(["Tips"]);
      expect(await found(handle.db, "migracion")).toEqual(["Migración rápida"]);
      expect(await findPostByPath(handle.db, "1")).toMatchObject({
        moved: true,
        post: { slug: "migracion-rapida" },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("on PGlite: every post kept as it was, published on its date, with a slug", async () => {
    const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const handle = await openDatabase({ dataDir: "", pglite: client });
    try {
      await check(handle);
    } finally {
      await handle.close();
    }
  });

  const reasonPg = skipReason(drivers[1]!);
  it.skipIf(reasonPg !== null)("on PostgreSQL: the same", async () => {
    const { url, drop } = await freshPostgresUrl();
    const handle = await openDatabase({ databaseUrl: url, dataDir: "" });
    try {
      await check(handle);
    } finally {
      await handle.close();
      await drop();
    }
  });
});

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`a backup from before publishing, on ${driver.name}`, () => {
    it("restores its posts as published posts with slugs made from their titles", async () => {
      const database = await driver.fresh();
      try {
        // How a version-1 backup's post line reads: none of the columns 0007 added.
        const row = {
          id: 7,
          title: "Migración rápida",
          description: null,
          content: "<p>Uno dos</p>",
          content_en: null,
          created_at: "2025-01-01T10:00:00+00:00",
          updated_at: "2025-01-02T10:00:00+00:00",
        };
        await database.db.execute(
          sql`insert into blog_posts select * from jsonb_populate_record(null::blog_posts, ${JSON.stringify(row)}::jsonb)`,
        );
        const [post] = await queryRows<{ slug: string; status: string; published: string }>(
          database.db,
          sql`select slug, status, published_at::text as published from blog_posts`,
        );
        expect(post).toMatchObject({ slug: "migracion-rapida", status: "published" });
        expect(new Date(post!.published).toISOString()).toBe("2025-01-01T10:00:00.000Z");
        expect(await found(database.db, "dos")).toEqual(["Migración rápida"]);
      } finally {
        await database.dispose();
      }
    });
  });
}

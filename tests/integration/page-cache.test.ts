import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { CacheTag } from "../../app/lib/cache-tags";
import { SEED_PROFILE } from "../../app/features/site/site.server";
import { autosavePost } from "../../app/features/posts/autosave.server";
import { deleteForever, restorePost, trashPost } from "../../app/features/posts/trash.server";
import {
  createPost,
  publishDuePosts,
  updatePost,
  type PostWriteInput,
} from "../../app/features/posts/write.server";
import { ensureProfile, getProfile, saveProfile } from "../../app/features/profile/profile.server";
import { openDatabase, type DatabaseHandle } from "../../database/db.server";
import { linkPageCache } from "../../server/page-cache/link";
import { PageCache } from "../../server/page-cache/store";
import { resolveAppRoute } from "../app-routes";
import { drivers, freshPostgresUrl, MIGRATIONS, queryRows, skipReason } from "./databases";

const post = {
  title: "A title",
  description: "",
  content: "<p>Body</p>",
  slug: null,
  tags: null,
  publish: { mode: "now" },
} satisfies PostWriteInput;

/** A public page's tags, as app/route-policy.ts declares them. */
function tagsOf(pathname: string): readonly CacheTag[] {
  const route = resolveAppRoute(pathname);
  if (route.policy.cache !== "public") throw new Error(`${pathname} is not a public page`);
  return route.policy.tags?.(route.params) ?? [];
}

/** Puts a stand-in rendering of each path into the cache, tagged as the middleware would. */
async function warm(cache: PageCache, paths: string[]) {
  for (const path of paths) {
    await cache.fill(path, async () => ({
      status: 200,
      headers: [],
      body: Buffer.from(path),
      etag: `W/"${path}"`,
      tags: tagsOf(new URL(path, "http://localhost").pathname),
    }));
  }
}

const cached = (cache: PageCache, paths: string[]) =>
  paths.filter((path) => cache.get(path) !== undefined);

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`page cache invalidation on ${driver.name}`, () => {
    let database: Awaited<ReturnType<(typeof driver)["fresh"]>>;
    let cache: PageCache;
    let link: Awaited<ReturnType<typeof linkPageCache>>;
    beforeEach(async () => {
      database = await driver.fresh();
      cache = new PageCache({ maxBytes: 1 << 20 });
      link = await linkPageCache(cache, database);
    });
    afterEach(async () => {
      await link.close();
      await database.dispose();
    });

    it("a new post drops every blog page (lists, tags, feeds, posts: they show related posts), not the home page", async () => {
      const first = await createPost(database.db, post);
      await link.barrier();
      const pages = [
        "/",
        "/blog",
        "/blog?page=2",
        "/blog/tags",
        "/blog/tags/sql",
        "/rss.xml",
        "/atom.xml",
        "/feed.json",
        "/blog/tags/sql/atom.xml",
        "/sitemap.xml",
        `/blog/${first.slug}`,
      ];
      await warm(cache, pages);
      await createPost(database.db, post);
      await link.barrier();
      expect(cached(cache, pages)).toEqual(["/"]);
    });

    it("editing or trashing a post drops the post pages and the lists", async () => {
      const [a, b] = [await createPost(database.db, post), await createPost(database.db, post)];
      await link.barrier();
      await warm(cache, [
        "/",
        "/blog",
        `/blog/${a.slug}`,
        `/blog/${b.slug}`,
        `/blog/${b.slug}.data`,
      ]);
      await updatePost(database.db, b.id, { ...post, title: "Edited" });
      await link.barrier();
      expect(cached(cache, ["/", "/blog", `/blog/${a.slug}`, `/blog/${b.slug}`])).toEqual(["/"]);
      await warm(cache, ["/blog", `/blog/${b.slug}`]);
      await trashPost(database.db, a.id);
      await link.barrier();
      expect(cached(cache, ["/blog", `/blog/${b.slug}`])).toEqual([]);
    });

    it("autosaves drop no page: a draft's row is no one's to see, a published post's changes wait", async () => {
      const source = { device: null, session: null, agent: null };
      const live = await createPost(database.db, post);
      const draft = await createPost(database.db, { ...post, publish: { mode: "draft" } });
      await link.barrier();
      const pages = ["/blog", "/rss.xml", "/sitemap.xml", `/blog/${live.slug}`];
      await warm(cache, pages);
      const typed = {
        title: "Typed",
        description: "",
        content: "<p>Typed words.</p>",
        slug: "",
        tags: "",
        publish: { mode: "now" as const },
      };
      await autosavePost(database.db, draft.id, { ...typed, baseRevision: draft.revision }, source);
      await autosavePost(database.db, live.id, { ...typed, baseRevision: live.revision }, source);
      await link.barrier();
      expect(cached(cache, pages)).toEqual(pages);
      // Update Post applies them: now the pages go.
      await updatePost(database.db, live.id, { ...post, title: "Typed" });
      await link.barrier();
      expect(cached(cache, pages)).toEqual([]);
    });

    it("the trash drops pages when a public post leaves or comes back, never for a draft", async () => {
      const pages = ["/blog", "/rss.xml", "/sitemap.xml", "/blog/tags"];
      const published = await createPost(database.db, post);
      const draft = await createPost(database.db, { ...post, publish: { mode: "draft" } });
      await link.barrier();
      const dropsAll = async (write: () => Promise<unknown>) => {
        await warm(cache, [...pages, `/blog/${published.slug}`]);
        await write();
        await link.barrier();
        return cached(cache, [...pages, `/blog/${published.slug}`]);
      };
      expect(await dropsAll(() => trashPost(database.db, published.id))).toEqual([]);
      expect(await dropsAll(() => restorePost(database.db, published.id))).toEqual([]);
      // A draft was never shown: trashing, restoring or deleting it forever drops nothing.
      const untouched = [...pages, `/blog/${published.slug}`];
      expect(await dropsAll(() => trashPost(database.db, draft.id))).toEqual(untouched);
      expect(await dropsAll(() => restorePost(database.db, draft.id))).toEqual(untouched);
      await trashPost(database.db, draft.id);
      expect(await dropsAll(() => deleteForever(database.db, draft.id))).toEqual(untouched);
    });

    it("a scheduled post going public drops the lists, feeds and sitemap at that moment", async () => {
      const at = new Date(Date.now() + 60_000);
      const scheduled = await createPost(database.db, {
        ...post,
        publish: { mode: "at", at },
      });
      await link.barrier();
      const pages = ["/blog", "/rss.xml", "/feed.json", "/sitemap.xml"];
      await warm(cache, pages);
      // Nothing is due yet: nothing is published, nothing dropped.
      expect(await publishDuePosts(database.db)).toEqual([]);
      await link.barrier();
      expect(cached(cache, pages)).toEqual(pages);
      await database.db.execute(
        sql`update blog_posts set published_at = now() - interval '1 second' where id = ${scheduled.id}`,
      );
      await link.barrier();
      await warm(cache, pages);
      expect(await publishDuePosts(database.db)).toEqual([scheduled.id]);
      await link.barrier();
      expect(cached(cache, pages)).toEqual([]);
    });

    it("a bulk write of many posts drops every post page", async () => {
      const { slug } = await createPost(database.db, post);
      await link.barrier();
      await warm(cache, ["/", "/blog", `/blog/${slug}`]);
      await database.db.execute(
        sql`insert into blog_posts (title, description, content)
            select 'Bulk ' || n, '', '<p>x</p>' from generate_series(1, 60) as n`,
      );
      await link.barrier();
      expect(cached(cache, ["/", "/blog", `/blog/${slug}`])).toEqual(["/"]);
    });

    it("experience and education changes drop the home page only", async () => {
      await warm(cache, ["/", "/blog"]);
      await database.db.execute(
        sql`insert into job_experiences (title, company, "from") values ('Dev', 'Acme', '2020')`,
      );
      await link.barrier();
      expect(cached(cache, ["/", "/blog"])).toEqual(["/blog"]);
      await warm(cache, ["/"]);
      await database.db.execute(sql`delete from education`);
      await link.barrier();
      expect(cached(cache, ["/", "/blog"])).toEqual(["/blog"]);
    });

    it("a profile edit drops the pages that show it: the name every page, the About the home page", async () => {
      await ensureProfile(database.db, SEED_PROFILE);
      await link.barrier();
      await warm(cache, ["/", "/blog", "/resume.json", "/sitemap.xml"]);
      const stored = (await getProfile(database.db))!;
      await saveProfile(database.db, { ...stored, about: ["Only the home page shows this."] });
      await link.barrier();
      expect(cached(cache, ["/", "/blog", "/resume.json", "/sitemap.xml"])).toEqual([
        "/blog",
        "/sitemap.xml",
      ]);
      await warm(cache, ["/", "/resume.json"]);
      await saveProfile(database.db, { ...stored, name: "A New Name" });
      await link.barrier();
      // The sitemap names no one.
      expect(cached(cache, ["/", "/blog", "/resume.json", "/sitemap.xml"])).toEqual([
        "/sitemap.xml",
      ]);
    });

    it("a write the database refused drops nothing", async () => {
      await warm(cache, ["/blog"]);
      await expect(
        database.db.execute(sql`insert into blog_posts (title) values (null)`),
      ).rejects.toThrow();
      await link.barrier();
      expect(cached(cache, ["/blog"])).toEqual(["/blog"]);
    });
  });
}

describe.skipIf(skipReason(drivers[1]!) !== null)("page cache across instances on postgres", () => {
  let url: string;
  let drop: () => Promise<void>;
  const handles: DatabaseHandle[] = [];
  const open = async () => {
    const handle = await openDatabase({ databaseUrl: url, dataDir: "" });
    handles.push(handle);
    return handle;
  };
  beforeEach(async () => {
    ({ url, drop } = await freshPostgresUrl());
    await (await open()).migrate(MIGRATIONS);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const handle of handles.splice(0)) await handle.close();
    await drop();
  });

  it("a write through one instance drops the page in another instance's cache", async () => {
    const [one, two] = [handles[0]!, await open()];
    const cacheOne = new PageCache({ maxBytes: 1 << 20 });
    const cacheTwo = new PageCache({ maxBytes: 1 << 20 });
    const links = [await linkPageCache(cacheOne, one), await linkPageCache(cacheTwo, two)];
    try {
      await warm(cacheTwo, ["/blog"]);
      await createPost(one.db, post);
      await vi.waitFor(() => expect(cacheTwo.get("/blog")).toBeUndefined(), { timeout: 2000 });
    } finally {
      for (const link of links) await link.close();
    }
  });

  it("when its connection is cut, the listener reconnects and forgets what it may have missed", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    const [handle, other] = [handles[0]!, await open()];
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const link = await linkPageCache(cache, handle);
    try {
      await warm(cache, ["/", "/blog"]);
      const [row] = await queryRows<{ n: number }>(
        other.db,
        sql`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
            where datname = current_database() and query like 'LISTEN%'`,
      );
      expect(row?.n).toBe(1);
      // Nothing announced a change, but the cache cannot know that: it starts afresh.
      await vi.waitFor(() => expect(cache.size).toBe(0), { timeout: 5000 });
      await warm(cache, ["/blog"]);
      await createPost(other.db, post);
      await vi.waitFor(() => expect(cache.get("/blog")).toBeUndefined(), { timeout: 2000 });
    } finally {
      await link.close();
    }
  });
});

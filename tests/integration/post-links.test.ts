import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { importParsers, runImport } from "../../app/features/import/index.server";
import { autosavePost } from "../../app/features/posts/autosave.server";
import { openEditablePost } from "../../app/features/posts/editor/editable-post.server";
import { getPost } from "../../app/features/posts/read.server";
import { restoreRevision } from "../../app/features/posts/revisions/restore.server";
import { createPost, updatePost, type PostWriteInput } from "../../app/features/posts/write.server";
import { loader as atomLoader } from "../../app/routes/atom";
import { loader as jsonFeedLoader } from "../../app/routes/feed-json";
import { loader as rssLoader } from "../../app/routes/rss";
import { drivers, routeContext, skipReason, type TestDatabase } from "./databases";

const { parseMarkdown } = await importParsers();

const source = { device: null, session: null, agent: null };
const canonical = "https://dev.to/me/a-post";
const copies = ["https://dev.to/me/a-post", "https://hashnode.com/@me/a-post"];

const post: PostWriteInput = {
  title: "A post",
  description: "",
  content: "<p>Some text.</p>",
  slug: null,
  tags: [],
  publish: { mode: "now" },
  canonicalUrl: canonical,
  syndication: copies,
};

const autosave = (fields: { baseRevision: number | null; canonicalUrl: string }) => ({
  title: "A draft",
  description: "",
  content: "<p>Draft text.</p>",
  slug: "",
  tags: "",
  publish: { mode: "draft" as const },
  syndication: "https://dev.to/me/draft\nnot a url",
  ...fields,
});

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`a post's links elsewhere on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("stores them on save and keeps them through a save that does not name them", async () => {
      const { db } = database;
      const saved = await createPost(db, post, { source });
      expect(await getPost(db, saved.id)).toMatchObject({
        canonicalUrl: canonical,
        syndication: copies,
      });
      const { canonicalUrl: _c, syndication: _s, ...withoutLinks } = post;
      await updatePost(db, saved.id, { ...withoutLinks, title: "Renamed" });
      expect(await getPost(db, saved.id)).toMatchObject({
        title: "Renamed",
        canonicalUrl: canonical,
        syndication: copies,
      });
      await updatePost(db, saved.id, { ...post, canonicalUrl: null, syndication: [] });
      expect(await getPost(db, saved.id)).toMatchObject({ canonicalUrl: null, syndication: [] });
    });

    it("autosaves them as typed, applies the valid ones to a draft, and restores them", async () => {
      const { db } = database;
      const first = await autosavePost(
        db,
        null,
        autosave({ baseRevision: null, canonicalUrl: canonical }),
        source,
      );
      const row = await getPost(db, first!.id);
      // The canonical URL is valid and applied; the copies wait: one line is no address yet.
      expect(row).toMatchObject({ canonicalUrl: canonical, syndication: [] });
      const opened = await openEditablePost(db, row!);
      expect(opened.canonicalUrl).toBe(canonical);
      expect(opened.syndication).toEqual(["https://dev.to/me/draft", "not a url"]);
    });

    it("restores a revision's links", async () => {
      const { db } = database;
      const saved = await createPost(db, { ...post, publish: { mode: "draft" } }, { source });
      const later = await autosavePost(
        db,
        saved.id,
        autosave({ baseRevision: saved.revision, canonicalUrl: "" }),
        source,
      );
      expect(await getPost(db, saved.id)).toMatchObject({ canonicalUrl: null });
      const restored = await restoreRevision(db, saved.id, saved.revision, later!.revision, source);
      expect(restored!.fields).toMatchObject({ canonicalUrl: canonical, syndication: copies });
      expect(await getPost(db, saved.id)).toMatchObject({
        canonicalUrl: canonical,
        syndication: copies,
      });
    });

    it("points the feeds' entries at the canonical URL, keeping their ids", async () => {
      const { db } = database;
      const saved = await createPost(db, post, { source });
      const read = async (loader: (args: never) => Promise<Response>) =>
        (
          await loader({
            request: new Request("http://localhost/feed"),
            context: routeContext(database),
            params: {},
          } as never)
        ).text();
      const rss = await read(rssLoader);
      expect(rss).toContain(`<link>${canonical}</link>`);
      expect(rss).toMatch(new RegExp(`<guid[^>]*>[^<]*/blog/${saved.id}</guid>`));
      expect(await read(atomLoader)).toContain(
        `<link rel="alternate" type="text/html" href="${canonical}"`,
      );
      const json = JSON.parse(await read(jsonFeedLoader)) as { items: { url: string }[] };
      expect(json.items[0]!.url).toBe(canonical);
    });

    it("imports a Markdown post's canonical URL and copies", async () => {
      const { db } = database;
      const parsed = parseMarkdown([
        {
          name: "first-elsewhere.md",
          text: `---\ntitle: First elsewhere\ndate: 2024-03-01T10:00:00Z\ncanonical_url: ${canonical}\nsyndication:\n  - https://hashnode.com/@me/a-post\n  - javascript:alert(1)\n---\n\nHello.\n`,
        },
      ]);
      const result = await runImport(db, parsed, undefined, { images: false });
      const id = result.created[0]!.id;
      expect(await getPost(db, id)).toMatchObject({
        canonicalUrl: canonical,
        syndication: ["https://hashnode.com/@me/a-post"],
      });
    });
  });
}

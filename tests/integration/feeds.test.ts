import { parseAtomFeed, parseJsonFeed } from "feedsmith";
import Parser from "rss-parser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { appContext } from "../../app/context";
import { FEED_FORMAT, feedAlternates, feedTitle } from "../../app/features/posts/feeds";
import { readSiteIdentity } from "../../app/features/site/site.server";
import { createPost, updatePost, type PostWriteInput } from "../../app/features/posts/write.server";
import { loader as atomLoader } from "../../app/routes/atom";
import { loader as jsonFeedLoader } from "../../app/routes/feed-json";
import { loader as rssLoader } from "../../app/routes/rss";
import { drivers, routeContext, skipReason, type TestDatabase } from "./databases";

type FeedLoader = (args: never) => Promise<Response>;

const LOADERS: Record<string, FeedLoader> = {
  [FEED_FORMAT.rss.type]: rssLoader,
  [FEED_FORMAT.atom.type]: atomLoader,
  [FEED_FORMAT.json.type]: jsonFeedLoader,
};

const IMAGE = `/media/${"ab".repeat(32)}.webp`;
const TRICKY = {
  title: `Tips & <tricks> for "SQL" & 'quotes'`,
  description: `a & b < c > d "e" 'f'`,
  content: `<p>x &amp; y &lt; z &gt; "w"</p><p><img src="${IMAGE}" alt="A diagram"></p>`,
};

const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12));

/**
 * The blog: three published posts (created in an order that is not their publication order),
 * a draft, a scheduled post, and one published then unpublished. `sql` and `node-js` have
 * published posts; `drafts-only` and `future-only` only unpublished ones.
 */
async function seed(db: TestDatabase["db"]) {
  const write = (title: string, publish: PostWriteInput["publish"], tags: string[], more = {}) =>
    createPost(db, {
      title,
      description: `About ${title}`,
      content: `<p>${title}</p>`,
      slug: null,
      tags,
      publish,
      ...more,
    });
  const middle = await write("Middle", { mode: "at", at: day(2) }, ["node-js"]);
  const tricky = await write(TRICKY.title, { mode: "at", at: day(3) }, ["sql", "node-js"], {
    ...TRICKY,
    slug: "tips-and-tricks",
  });
  const oldest = await write("Oldest", { mode: "at", at: day(1) }, ["sql"]);
  await write("A draft", { mode: "draft" }, ["sql", "drafts-only"]);
  const future = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  await write("Scheduled", { mode: "at", at: future }, ["sql", "future-only"]);
  const withdrawn = await write("Withdrawn", { mode: "at", at: day(4) }, ["sql", "drafts-only"]);
  await updatePost(db, withdrawn.id, {
    title: "Withdrawn",
    description: "",
    content: "<p>Withdrawn</p>",
    slug: null,
    tags: ["sql", "drafts-only"],
    publish: { mode: "draft" },
  });
  return { tricky, middle, oldest };
}

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`the feeds on ${driver.name}`, () => {
    let database: TestDatabase;
    let base: string;
    let siteName: string;
    beforeEach(async () => {
      database = await driver.fresh();
      base = routeContext(database).get(appContext).env.siteUrl;
      siteName = (await readSiteIdentity(database.db)).name;
    });
    afterEach(async () => {
      await database.dispose();
    });

    /** The loader's answer to a feed's URL, as the router would call it. */
    const get = (loader: FeedLoader, tag?: string) =>
      loader({
        request: new Request(`${base}/feed`),
        context: routeContext(database),
        params: tag === undefined ? {} : { tag },
      } as never);

    async function body(loader: FeedLoader, format: { type: string }, tag?: string) {
      const response = await get(loader, tag);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe(`${format.type}; charset=utf-8`);
      return response.text();
    }

    // rss-parser reads XML strictly (xml2js): a stray `&` or `<` fails the parse.
    const rss = async (tag?: string) =>
      new Parser({ customFields: { item: ["content:encoded"] } }).parseString(
        await body(rssLoader, FEED_FORMAT.rss, tag),
      );
    const atom = async (tag?: string) => {
      const xml = await body(atomLoader, FEED_FORMAT.atom, tag);
      // Well-formed XML first (strictly), then read as Atom.
      await new Parser().parseString(xml);
      return { xml, feed: parseAtomFeed(xml) };
    };
    const jsonFeed = async (tag?: string) => {
      const text = await body(jsonFeedLoader, FEED_FORMAT.json, tag);
      return { raw: JSON.parse(text) as Record<string, unknown>, feed: parseJsonFeed(text) };
    };

    it("RSS: published posts alone, newest first, at their slug URLs, with stable guids", async () => {
      const { tricky, middle, oldest } = await seed(database.db);
      const feed = await rss();
      expect(feed.title).toBe(feedTitle(siteName));
      expect(feed.link).toBe(`${base}/blog`);
      expect(feed.items.map((item) => item.title)).toEqual([TRICKY.title, "Middle", "Oldest"]);
      expect(feed.items.map((item) => item.link)).toEqual([
        `${base}/blog/tips-and-tricks`,
        `${base}/blog/${middle.slug}`,
        `${base}/blog/${oldest.slug}`,
      ]);
      expect(feed.items.map((item) => item.guid)).toEqual(
        [tricky, middle, oldest].map((post) => `${base}/blog/${post.id}`),
      );
      expect(feed.items.map((item) => new Date(item.pubDate!).toISOString())).toEqual(
        [day(3), day(2), day(1)].map((d) => d.toISOString()),
      );
      expect(feed.items[0]!.categories).toEqual(["sql", "node-js"]);
      // Every text comes back exactly as written.
      expect(feed.items[0]!.contentSnippet).toBe(TRICKY.description);
      const content = feed.items[0]!["content:encoded"] as string;
      expect(content).toContain(`<img src="${base}${IMAGE}" alt="A diagram"`);
      expect(content).toContain(`x &amp; y &lt; z &gt; "w"`);
      expect(content).not.toContain('src="/media/');
    });

    it("Atom 1.0: the elements RFC 4287 requires, stable ids, slug links, full content", async () => {
      const { tricky, middle, oldest } = await seed(database.db);
      const { xml, feed } = await atom();
      expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom"');
      expect(feed.id).toBe(`${base}/atom.xml`);
      expect(feed.title?.value).toBe(feedTitle(siteName));
      expect(feed.authors?.map((author) => author.name)).toEqual([siteName]);
      expect(feed.links).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ rel: "self", href: `${base}/atom.xml` }),
          expect.objectContaining({ rel: "alternate", href: `${base}/blog` }),
        ]),
      );
      const entries = feed.entries ?? [];
      expect(entries.map((entry) => entry.id)).toEqual(
        [tricky, middle, oldest].map((post) => `${base}/blog/${post.id}`),
      );
      expect(entries.map((entry) => entry.title?.value)).toEqual([
        TRICKY.title,
        "Middle",
        "Oldest",
      ]);
      expect(entries.map((entry) => entry.links?.map((link) => [link.rel, link.href]))).toEqual([
        [["alternate", `${base}/blog/tips-and-tricks`]],
        [["alternate", `${base}/blog/${middle.slug}`]],
        [["alternate", `${base}/blog/${oldest.slug}`]],
      ]);
      expect(entries.map((entry) => entry.published)).toEqual(
        [day(3), day(2), day(1)].map((d) => d.toISOString()),
      );
      for (const entry of entries) {
        // Every entry changed last no earlier than it went public; the feed when the newest did.
        expect(Date.parse(entry.updated!)).toBeGreaterThanOrEqual(Date.parse(entry.published!));
      }
      expect(Date.parse(feed.updated!)).toBe(
        Math.max(...entries.map((entry) => Date.parse(entry.updated!))),
      );
      const first = entries[0]!;
      expect(first.summary?.value).toBe(TRICKY.description);
      expect(first.categories?.map((category) => category.term)).toEqual(["sql", "node-js"]);
      expect(first.content?.type).toBe("html");
      expect(first.content?.value).toContain(`<img src="${base}${IMAGE}" alt="A diagram"`);
      expect(first.content?.value).toContain(`x &amp; y &lt; z &gt; "w"`);
    });

    it("JSON Feed 1.1: the same posts, ids and content as the XML feeds", async () => {
      const { tricky, middle, oldest } = await seed(database.db);
      const { raw, feed } = await jsonFeed();
      expect(raw.version).toBe("https://jsonfeed.org/version/1.1");
      expect(feed.title).toBe(feedTitle(siteName));
      expect(feed.home_page_url).toBe(`${base}/blog`);
      expect(feed.feed_url).toBe(`${base}/feed.json`);
      expect(feed.language).toBe("en");
      expect(feed.authors).toEqual([{ name: siteName, url: base }]);
      const items = feed.items ?? [];
      expect(items.map((item) => item.id)).toEqual(
        [tricky, middle, oldest].map((post) => `${base}/blog/${post.id}`),
      );
      expect(items.map((item) => item.url)).toEqual([
        `${base}/blog/tips-and-tricks`,
        `${base}/blog/${middle.slug}`,
        `${base}/blog/${oldest.slug}`,
      ]);
      expect(items.map((item) => item.date_published)).toEqual(
        [day(3), day(2), day(1)].map((d) => d.toISOString()),
      );
      const first = items[0]!;
      expect(first.title).toBe(TRICKY.title);
      expect(first.summary).toBe(TRICKY.description);
      expect(first.tags).toEqual(["sql", "node-js"]);
      for (const item of items) {
        // An item must have content (JSON Feed 1.1); each of ours has the full HTML.
        expect(item.content_html).toMatch(/^<p>/);
        expect(Date.parse(item.date_modified!)).toBeGreaterThanOrEqual(
          Date.parse(item.date_published!),
        );
      }

      // One content for all three formats.
      const [rssFeed, atomFeed] = [await rss(), (await atom()).feed];
      expect(first.content_html).toBe(rssFeed.items[0]!["content:encoded"]);
      expect(first.content_html).toBe(atomFeed.entries![0]!.content?.value);
      expect(first.content_html).toContain(`<img src="${base}${IMAGE}" alt="A diagram"`);
    });

    it("a tag's feeds carry that tag's published posts alone, with their own title and links", async () => {
      await seed(database.db);
      for (const [tag, titles] of [
        ["sql", [TRICKY.title, "Oldest"]],
        ["node-js", [TRICKY.title, "Middle"]],
      ] as const) {
        const title = feedTitle(siteName, tag);
        const home = `${base}/blog/tags/${tag}`;

        const rssFeed = await rss(tag);
        expect(rssFeed.title).toBe(title);
        expect(rssFeed.link).toBe(home);
        expect(rssFeed.items.map((item) => item.title)).toEqual(titles);
        expect(await body(rssLoader, FEED_FORMAT.rss, tag)).toContain(
          `<atom:link href="${home}/rss.xml" rel="self"`,
        );

        const atomFeed = (await atom(tag)).feed;
        expect(atomFeed.title?.value).toBe(title);
        expect(atomFeed.id).toBe(`${home}/atom.xml`);
        expect(atomFeed.links?.map((link) => [link.rel, link.href])).toEqual([
          ["self", `${home}/atom.xml`],
          ["alternate", home],
        ]);
        expect(atomFeed.entries?.map((entry) => entry.title?.value)).toEqual(titles);

        const json = (await jsonFeed(tag)).feed;
        expect(json.title).toBe(title);
        expect(json.home_page_url).toBe(home);
        expect(json.feed_url).toBe(`${home}/feed.json`);
        expect(json.items?.map((item) => item.title)).toEqual(titles);
      }
    });

    it.each([
      ["a tag only drafts have", "drafts-only"],
      ["a tag only a scheduled post has", "future-only"],
      ["a tag no post has", "nope"],
      ["a segment that cannot be a tag", "Not_A_Tag"],
    ])("%s answers 404 in every format", async (_, tag) => {
      await seed(database.db);
      for (const loader of Object.values(LOADERS)) {
        const response = await get(loader, tag);
        expect(response.status).toBe(404);
        expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
        expect(await response.text()).toBe("No published post has this tag.\n");
      }
    });

    it("an empty blog has valid, empty feeds", async () => {
      expect((await rss()).items).toEqual([]);
      const atomFeed = (await atom()).feed;
      expect(atomFeed.entries ?? []).toEqual([]);
      expect(atomFeed.updated).toBe(new Date(0).toISOString());
      expect((await jsonFeed()).raw.items).toEqual([]);
    });

    it("every format is advertised, for the blog and for a tag, and served as advertised", async () => {
      await seed(database.db);
      expect(feedAlternates(siteName)).toEqual([
        {
          rel: "alternate",
          type: "application/rss+xml",
          title: `${siteName} · Blog (RSS)`,
          href: "/rss.xml",
        },
        {
          rel: "alternate",
          type: "application/atom+xml",
          title: `${siteName} · Blog (Atom)`,
          href: "/atom.xml",
        },
        {
          rel: "alternate",
          type: "application/feed+json",
          title: `${siteName} · Blog (JSON Feed)`,
          href: "/feed.json",
        },
      ]);
      expect(
        feedAlternates(siteName, "sql").map((link) => [link.type, link.href, link.title]),
      ).toEqual([
        ["application/rss+xml", "/blog/tags/sql/rss.xml", `${siteName} · Blog · #sql (RSS)`],
        ["application/atom+xml", "/blog/tags/sql/atom.xml", `${siteName} · Blog · #sql (Atom)`],
        [
          "application/feed+json",
          "/blog/tags/sql/feed.json",
          `${siteName} · Blog · #sql (JSON Feed)`,
        ],
      ]);
      for (const tag of [undefined, "sql"]) {
        for (const link of feedAlternates(siteName, tag)) {
          const response = await get(LOADERS[link.type]!, tag);
          expect(response.headers.get("Content-Type")).toBe(`${link.type}; charset=utf-8`);
          // Each feed names itself at the advertised address.
          expect(await response.text()).toContain(`${base}${link.href}`);
        }
      }
    });
  });
}

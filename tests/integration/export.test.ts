import sharp from "sharp";
import { unzipSync, strFromU8 } from "fflate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { importParsers, readExportFiles, runImport } from "../../app/features/import/index.server";
import { IMAGE_SIZES, postImageOf } from "../../app/features/media";
import { processImage, storeMedia } from "../../app/features/media/index.server";
import { exportPosts } from "../../app/features/posts/export.server";
import { getPost } from "../../app/features/posts/read.server";
import { createPost, type PostWriteInput } from "../../app/features/posts/write.server";
import { storableContent } from "../../app/features/posts/content.server";
import { drivers, queryRows, skipReason, type TestDatabase } from "./databases";

const { parseMarkdown } = await importParsers();

const body = `<h2>Setup</h2><p>Read <a href="https://example.com/docs">the docs</a>, then:</p>
<ul><li><p>one</p></li><li><p>two <strong>bold</strong></p></li></ul>
<ol><li><p>first</p></li><li><p>second</p></li></ol>
<pre><code class="language-typescript">const x: number = 1;\nconsole.log(x);</code></pre>
<h3>Table</h3>
<table><tbody><tr><th><p>Name</p></th><th><p>Value</p></th></tr><tr><td><p>a</p></td><td><p>1</p></td></tr></tbody></table>
<blockquote><p>Quoted <em>text</em> and <code>inline</code>.</p></blockquote>`;

async function write(db: TestDatabase["db"], input: Partial<PostWriteInput> & { content: string }) {
  const content = await storableContent(input.content);
  if (!content.ok) throw new Error(content.error);
  return createPost(db, {
    title: "A post",
    description: "",
    slug: null,
    tags: [],
    publish: { mode: "at", at: new Date("2024-05-01T10:00:00Z") },
    ...input,
    content: content.html,
  });
}

async function zipOf(db: TestDatabase["db"]) {
  const chunks: Uint8Array[] = [];
  const counts = await exportPosts(db, (chunk) => {
    chunks.push(chunk);
  });
  return { files: unzipSync(Buffer.concat(chunks)), counts };
}

/** What a post's content shows, whatever the highlighter wrapped its code in. */
const shown = (html: string) =>
  html
    .replace(/<img\b[^>]*>/g, "[image]")
    .replace(/<a href="[^"]*\.webp"[^>]*>[^<]*<\/a>/g, "[image]")
    .replace(/<span[^>]*>|<\/span>/g, "")
    .replace(/\s+/g, " ")
    .replace(/> </g, "><")
    .trim();

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(`exporting posts as Markdown on ${driver.name}`, () => {
    let from: TestDatabase;
    let to: TestDatabase;
    beforeEach(async () => {
      from = await driver.fresh();
      to = await driver.fresh();
    });
    afterEach(async () => {
      await from.dispose();
      await to.dispose();
    });

    it("writes every post with its front matter and its images beside it", async () => {
      const png = await sharp({
        create: { width: 64, height: 48, channels: 3, background: "#c00" },
      })
        .png()
        .toBuffer();
      const processed = await processImage(png);
      if (!processed.ok) throw new Error(processed.error);
      const image = postImageOf(await storeMedia(from.db, "image", processed.files));
      await write(from.db, {
        title: "With a picture",
        content: `<p>Look:</p><img src="${image.src}" srcset="${image.srcset}" sizes="${IMAGE_SIZES}" width="${image.width}" height="${image.height}" alt="A red box">`,
        tags: ["pictures"],
        canonicalUrl: "https://dev.to/me/with-a-picture",
        syndication: ["https://hashnode.com/@me/pic"],
      });
      await write(from.db, {
        title: "Unfinished",
        content: "<p>Soon.</p>",
        publish: { mode: "draft" },
      });
      const { files, counts } = await zipOf(from.db);
      expect(counts).toEqual({ posts: 2, images: 1 });
      const text = strFromU8(files["posts/with-a-picture/index.md"]!);
      expect(text).toContain('title: "With a picture"');
      expect(text).toContain('canonical_url: "https://dev.to/me/with-a-picture"');
      expect(text).toContain('syndication: ["https://hashnode.com/@me/pic"]');
      expect(text).toContain("draft: false");
      const name = image.src.replace("/media/", "");
      expect(text).toContain(`![A red box](${name})`);
      expect(files[`posts/with-a-picture/${name}`]!.length).toBeGreaterThan(0);
      expect(strFromU8(files["posts/unfinished/index.md"]!)).toContain("draft: true");
    });

    it("reads back through the Markdown importer as the same posts", async () => {
      const a = await write(from.db, {
        title: 'Canonical: a "quoted" title',
        description: "What it is about",
        content: body,
        tags: ["node-js", "sql"],
        slug: "first-post",
        canonicalUrl: "https://dev.to/me/first",
        syndication: ["https://dev.to/me/first", "https://medium.com/@me/first"],
      });
      const b = await write(from.db, {
        title: "A draft",
        content: "<p>Not yet.</p>",
        publish: { mode: "draft" },
      });
      const { files } = await zipOf(from.db);
      // The table is a GFM table, which the import reads back as the editor's table.
      expect(strFromU8(files["posts/first-post/index.md"]!)).toContain(
        "| Name | Value |\n| --- | --- |\n| a   | 1   |",
      );
      const markdown = Object.entries(files)
        .filter(([name]) => name.endsWith(".md"))
        .map(([name, bytes]) => ({ name, text: strFromU8(bytes) }));
      const result = await runImport(to.db, parseMarkdown(markdown), undefined, { images: false });
      expect(result.failed).toEqual([]);
      for (const [original, slug] of [
        [a, "first-post"],
        [b, "a-draft"],
      ] as const) {
        const before = (await getPost(from.db, original.id))!;
        const created = result.created.find((post) => post.slug === slug)!;
        const after = (await getPost(to.db, created.id))!;
        expect(after).toMatchObject({
          title: before.title,
          slug: before.slug,
          description: before.description,
          status: before.status,
          publishedAt: before.publishedAt,
          updatedAt: before.updatedAt,
          tags: before.tags,
          canonicalUrl: before.canonicalUrl,
          syndication: before.syndication,
        });
        expect(shown(after.content)).toBe(shown(before.content));
        if (slug === "first-post") expect(after.content).toContain('class="language-typescript"');
      }
    });

    it("the zip read back brings its images with it, from the zip and not from the web", async () => {
      const png = await sharp({
        create: { width: 80, height: 60, channels: 3, background: "#06c" },
      })
        .png()
        .toBuffer();
      const processed = await processImage(png);
      if (!processed.ok) throw new Error(processed.error);
      const image = postImageOf(await storeMedia(from.db, "image", processed.files));
      await write(from.db, {
        title: "Blue box",
        content: `<p>See:</p><img src="${image.src}" srcset="${image.srcset}" sizes="${IMAGE_SIZES}" width="${image.width}" height="${image.height}" alt="A blue box">`,
      });
      const { files } = await zipOf(from.db);
      const parsed = await readExportFiles(
        Object.entries(files).map(([name, bytes]) => ({ name, bytes })),
      );
      // No base URL and no web: the only place the image can come from is the zip.
      const result = await runImport(to.db, parsed);
      expect(result.failed).toEqual([]);
      expect(result.images).toEqual({ rehosted: 1, failed: [] });
      const after = (await getPost(to.db, result.created[0]!.id))!;
      expect(after.content).toMatch(
        /<img src="\/media\/[0-9a-f]{64}\.(?:png|jpg|webp)"[^>]* alt="A blue box"/,
      );
      // The same files as the image's first upload made (its sizes and formats), no more.
      const count = async (db: TestDatabase["db"]) =>
        (await queryRows<{ n: number }>(db, "select count(*)::int as n from media"))[0]!.n;
      expect(await count(to.db)).toBe(await count(from.db));
    });
  });
}

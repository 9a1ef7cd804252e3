import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { importParsers, runImport } from "../../app/features/import/index.server";
import { readMedia } from "../../app/features/media/index.server";
import { setOutgoingFetchPolicy } from "../../app/lib/safe-fetch.server";
import { blogPosts } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";

/**
 * An export's images fetched from a real peer on loopback (FETCH_ALLOW_PRIVATE's setting on),
 * re-encoded by the media pipeline without their metadata, the posts pointed at the copies; a
 * missing one reported and kept as a link. The export is a Ghost one shaped as Ghost writes them.
 */
let server: Server;
let base: string;
let served: string[] = [];
let photo: Buffer;

beforeAll(async () => {
  photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3a6" } })
    .jpeg()
    .withExif({ IFD0: { Copyright: "Someone", Artist: "A camera" } })
    .toBuffer();
  server = createServer((request, response) => {
    served.push(request.url ?? "");
    if (request.url === "/content/images/photo.jpg") {
      response.writeHead(200, { "content-type": "image/jpeg" }).end(photo);
    } else {
      response.writeHead(404).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setOutgoingFetchPolicy({ allowPrivate: true });
});
afterAll(async () => {
  setOutgoingFetchPolicy({ allowPrivate: false });
  server.close();
  await once(server, "close");
});

const ghostExport = (html: string, more: Record<string, string> = {}) =>
  JSON.stringify({
    db: [
      {
        meta: { version: "4.1.0" },
        data: {
          posts: [
            {
              id: "a1",
              title: "Pictures",
              slug: "pictures",
              html,
              type: "post",
              status: "published",
              ...more,
            },
          ],
        },
      },
    ],
  });

const { parseGhost } = await importParsers();

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`an import's images on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
      served = [];
    });
    afterEach(() => database.dispose());

    it("brings images here without EXIF; a missing one is reported and stays a link", async () => {
      const html =
        `<p>One:</p><img src="${base}/content/images/photo.jpg" alt="A green field">` +
        `<p>Again:</p><img src="${base}/content/images/photo.jpg" alt="The same field">` +
        `<p>Gone:</p><img src="${base}/content/images/gone.jpg" alt="Lost">`;
      const result = await runImport(database.db, parseGhost(ghostExport(html)));
      expect(result.created).toHaveLength(1);
      expect(result.images.rehosted).toBe(1);
      expect(result.images.failed).toEqual([
        {
          src: `${base}/content/images/gone.jpg`,
          reason: "the server answered 404",
          title: "Pictures",
        },
      ]);
      // Fetched once, though shown twice.
      expect(served.filter((url) => url === "/content/images/photo.jpg")).toHaveLength(1);
      const [post] = await database.db.select().from(blogPosts);
      const images = [
        ...post!.content.matchAll(/<img [^>]*src="(\/media\/[^"]+)"[^>]*alt="([^"]+)"/g),
      ];
      expect(images.map((m) => m[2])).toEqual(["A green field", "The same field"]);
      expect(post!.content).toContain(`<a href="${base}/content/images/gone.jpg"`);
      expect(post!.content).not.toContain(`src="${base}`);
      const hash = /\/media\/([0-9a-f]+)/.exec(images[0]![1]!)![1]!;
      const stored = await readMedia(database.db, hash);
      expect(stored).toBeDefined();
      const metadata = await sharp(stored!.bytes).metadata();
      expect(metadata.width).toBe(800);
      expect(metadata.exif).toBeUndefined();
      const [original] = [await sharp(photo).metadata()];
      expect(original.exif).toBeDefined();
    });

    it("opens the post with its feature image, brought here, unless the body shows it", async () => {
      const cover = `${base}/content/images/photo.jpg`;
      const result = await runImport(
        database.db,
        parseGhost(
          ghostExport("<p>The text.</p>", { feature_image: cover, feature_image_alt: "A field" }),
        ),
      );
      expect(result.images).toEqual({ rehosted: 1, failed: [] });
      const [post] = await database.db.select().from(blogPosts);
      expect(post!.content).toMatch(
        /^<p><img [^>]*src="\/media\/[0-9a-f]+[^"]*"[^>]*alt="A field"/,
      );
      expect(post!.content).toContain("<p>The text.</p>");
      expect(post!.content).not.toContain(`src="${base}`);
    });

    it("--images-from fetches the export's image paths from another base URL", async () => {
      const html = `<img src="https://old-blog.example/content/images/photo.jpg" alt="Field">`;
      const result = await runImport(database.db, parseGhost(ghostExport(html)), undefined, {
        images: { imagesFrom: base },
      });
      expect(result.images).toEqual({ rehosted: 1, failed: [] });
      expect(served).toEqual(["/content/images/photo.jpg"]);
    });
  });
}

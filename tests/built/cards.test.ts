// Share cards through the real bundle's node:http server: the post's and the home page's head
// name their card (absolute URL, size, text), the card is served as an immutable PNG, and a new
// title gives the cached page a new card.
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";

import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { refreshCards } from "../../app/features/cards/cards.server";
import { createPost, updatePost } from "../../app/features/posts/write.server";
import { ensureProfile } from "../../app/features/profile/profile.server";
import { SEED_PROFILE } from "../../app/features/site/site.server";
import type * as ServerApp from "../../server/app";
import { linkPageCache } from "../../server/page-cache/link";
import { freshPglite, type TestDatabase } from "../integration/databases";
import { loadBundle, rawGet, SITE_URL } from "./site";

const post = (title: string) => ({
  title,
  description: "About cards",
  content: "<p>Body</p>",
  slug: "share-cards",
  tags: [],
  publish: { mode: "now" as const },
});

/** The page's `<meta>` tags, by property or name. */
function metaTags(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<meta [^>]*>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(tag)?.[1];
    const content = /content="([^"]*)"/.exec(tag)?.[1];
    if (key && content !== undefined) tags[key] = content;
  }
  return tags;
}

describe("share cards through the built server", () => {
  let server: Server;
  let database: TestDatabase;
  let media: { close(): Promise<void> };
  let closeLink: () => Promise<void>;
  let barrier: () => Promise<void>;
  let dataDir: string;
  let id: number;

  beforeAll(async () => {
    const { root, exports } = await loadBundle();
    const bundle = exports as typeof exports &
      Pick<typeof ServerApp, "PageCache" | "startMediaFiles" | "createSiteServer">;
    database = await freshPglite();
    await ensureProfile(database.db, SEED_PROFILE);
    id = (await createPost(database.db, post("Cards for every post"))).id;
    await refreshCards(database.db);
    dataDir = mkdtempSync(path.join(os.tmpdir(), "cards-built-"));
    const env = bundle.parseEnv({
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      SITE_URL,
      PAGE_CACHE_HEADER: "true",
    });
    const pageCache = new bundle.PageCache({ maxBytes: env.pageCacheBytes });
    // As server/app.ts links them: the database's notices drop cached pages.
    const link = await linkPageCache(pageCache as never, database);
    closeLink = link.close;
    barrier = link.barrier;
    const app = bundle.createSiteApp({ env, database, root, pageCache });
    const files = await bundle.startMediaFiles({
      database,
      dataDir,
      maxBytes: env.mediaCacheBytes,
      security: { https: false, development: false },
    });
    media = files;
    server = bundle.createSiteServer({ app, pageCache, env, media: files.handle });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await closeLink();
    await media.close();
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("names the post's card in its head, with size and text, and serves it as an immutable PNG", async () => {
    const page = await rawGet(server, "/blog/share-cards");
    expect(page.status).toBe(200);
    const tags = metaTags(page.body.toString());
    const card = new RegExp(`^${SITE_URL}/media/([0-9a-f]{64})\\.png$`);
    expect(tags["og:image"]).toMatch(card);
    expect(tags).toMatchObject({
      "og:image:width": "1200",
      "og:image:height": "630",
      "og:image:alt": "Cards for every post",
      "twitter:card": "summary_large_image",
      "twitter:image": tags["og:image"],
    });

    const file = await rawGet(server, new URL(tags["og:image"]!).pathname);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const meta = await sharp(file.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
    expect(file.body.byteLength).toBeLessThan(150 * 1024);
  });

  it("names the home page's card, with the owner's name and title", async () => {
    const tags = metaTags((await rawGet(server, "/")).body.toString());
    expect(tags["og:image"]).toMatch(new RegExp(`^${SITE_URL}/media/[0-9a-f]{64}\\.png$`));
    expect(tags["og:image:alt"]).toBe(`${SEED_PROFILE.name}, ${SEED_PROFILE.title}`);
    expect(tags["twitter:card"]).toBe("summary_large_image");
    const post = metaTags((await rawGet(server, "/blog/share-cards")).body.toString());
    expect(tags["og:image"]).not.toBe(post["og:image"]);
  });

  it("gives the cached page the new card once the title changes", async () => {
    const before = await rawGet(server, "/blog/share-cards");
    const again = await rawGet(server, "/blog/share-cards");
    expect(again.headers["x-page-cache"]).toBe("hit");
    const old = metaTags(before.body.toString())["og:image"];

    await updatePost(database.db, id, post("Cards, drawn again"));
    await refreshCards(database.db);
    await barrier();
    const tags = metaTags((await rawGet(server, "/blog/share-cards")).body.toString());
    expect(tags["og:image"]).not.toBe(old);
    expect(tags["og:image:alt"]).toBe("Cards, drawn again");
    expect((await rawGet(server, new URL(tags["og:image"]!).pathname)).status).toBe(200);
  });
});

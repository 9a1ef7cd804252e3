// The page cache against floods and probes, on the real bundle behind its node:http listener,
// as production runs it (PAGE_CACHE_HEADER off): 5,000 made-up searches must not evict the
// pages everyone reads nor grow the cache past its bound; nothing tells a visitor whether a
// page was asked for before; `gzip;q=0` gets an uncompressed answer; a made-up session cookie
// on a write costs nothing more than none.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freshPglite, type TestDatabase } from "../integration/databases";
import { loadBundle, rawGet, SITE_URL } from "./site";

type Cache = {
  size: number;
  totalBytes: number;
  probationTotalBytes: number;
  maxBytes: number;
  get(key: string): unknown;
};

const MAX_BYTES = 4 * 1024 * 1024;
const FLOOD = 5_000;

describe("the page cache under a flood of searches (production headers)", () => {
  let server: Server;
  let database: TestDatabase;
  let cache: Cache;
  let barriers = 0;

  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    rawGet(server, path, headers, method);

  beforeAll(async () => {
    const { root, exports } = await loadBundle();
    const bundle = exports as typeof exports & {
      PageCache: new (options: { maxBytes: number }) => Cache;
      siteListener: (
        fetch: (request: Request, env: unknown) => Response | Promise<Response>,
        cache: unknown,
        options: { showCacheStatus: boolean },
      ) => Parameters<typeof createServer>[0];
    };
    database = await freshPglite();
    for (let i = 1; i <= 12; i++) {
      await database.db.execute(
        `insert into blog_posts (title, description, content, created_at) values ('Post ${i}', 'd', '<p>Body ${i}</p>', now() - interval '${13 - i} minutes')`,
      );
    }
    const env = bundle.parseEnv({ NODE_ENV: "production", DATA_DIR: "unused", SITE_URL });
    expect(env.pageCacheHeader, "production does not say how the cache answered").toBe(false);
    cache = new bundle.PageCache({ maxBytes: MAX_BYTES });
    const app = bundle.createSiteApp({
      env,
      database,
      root,
      pageCache: cache as never,
      afterOwnerWrite: async () => {
        barriers++;
      },
    });
    server = createServer(
      bundle.siteListener((request, e) => app.fetch(request, e as never), cache, {
        showCacheStatus: env.pageCacheHeader,
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.dispose();
  });

  const gzip = { "accept-encoding": "gzip" };
  const everyone = [
    "/",
    "/blog",
    "/blog/post-12",
    "/blog/post-11",
    "/blog/post-10",
    "/rss.xml",
    "/sitemap.xml",
  ];

  it(`keeps /, the newest posts and the feeds through ${FLOOD} distinct searches, within its bound`, async () => {
    for (const path of everyone) expect((await get(path, gzip)).status, path).toBe(200);
    for (const path of everyone) expect(cache.get(path), path).toBeDefined();

    const started = performance.now();
    for (let i = 0; i < FLOOD; i++) {
      const word = Math.random().toString(36).slice(2, 10);
      const reply = await get(`/blog?q=${word}${i}`, gzip);
      expect(reply.status).toBe(200);
    }
    const seconds = (performance.now() - started) / 1000;
    for (const path of everyone) expect(cache.get(path), `${path} survived`).toBeDefined();
    console.log(
      `cache flood: ${FLOOD} distinct searches in ${seconds.toFixed(1)} s; the cache holds ` +
        `${cache.size} pages in ${(cache.totalBytes / 1024).toFixed(0)} KB of ${MAX_BYTES / 1024} KB ` +
        `(searches ${(cache.probationTotalBytes / 1024).toFixed(0)} KB); all ${everyone.length} shared pages kept`,
    );
    expect(cache.totalBytes).toBeLessThanOrEqual(MAX_BYTES);
    // Asked once each: none was kept.
    expect(cache.probationTotalBytes).toBe(0);
    expect(cache.size).toBe(everyone.length);
  });

  it("keeps a search asked for twice, within its own share", async () => {
    await get("/blog?q=kafka", gzip);
    expect(cache.get("/blog?q=kafka")).toBeUndefined();
    await get("/blog?q=kafka", gzip);
    expect(cache.get("/blog?q=kafka")).toBeDefined();
    // Repeated searches beyond the share push out older searches, never shared pages.
    for (let i = 0; i < 400; i++) {
      await get(`/blog?q=repeat${i}`, gzip);
      await get(`/blog?q=repeat${i}`, gzip);
    }
    expect(cache.probationTotalBytes).toBeGreaterThan(0);
    expect(cache.probationTotalBytes).toBeLessThanOrEqual(MAX_BYTES / 8);
    for (const path of everyone) expect(cache.get(path), `${path} survived`).toBeDefined();
  });

  it("does not say whether a page was cached, on a miss, on a hit at the listener or in the app", async () => {
    const first = await get("/blog?q=secret-project", gzip);
    const second = await get("/blog?q=secret-project", gzip);
    const third = await get("/blog?q=secret-project", gzip);
    const lookalike = await get("/", { ...gzip, cookie: "session=made-up" });
    for (const reply of [first, second, third, lookalike]) {
      expect(reply.status).toBe(200);
      expect(reply.headers["x-page-cache"]).toBeUndefined();
    }
  });

  it("answers uncompressed when gzip is refused with q=0, cached or not", async () => {
    for (const path of ["/", "/blog/post-12", "/blog?q=plain", "/login", "/rss.xml"]) {
      for (let i = 0; i < 2; i++) {
        const reply = await get(path, { "accept-encoding": "gzip;q=0" });
        expect(reply.status, path).toBe(200);
        expect(reply.headers["content-encoding"], path).toBeUndefined();
        expect(reply.body.toString("utf8", 0, 200), path).toMatch(/<!DOCTYPE html>|<\?xml/i);
      }
      const zipped = await get(path, { "accept-encoding": "identity;q=0.5, gzip;q=1" });
      expect(zipped.headers["content-encoding"], path).toBe("gzip");
    }
  });

  it("a made-up session cookie on a write costs no barrier; a write without one neither", async () => {
    const form = (cookie?: string) =>
      new Promise<number>((resolve, reject) => {
        const { port } = server.address() as AddressInfo;
        const body = new URLSearchParams({
          name: "Ana",
          email: "ana@example.com",
          message: "Hello there, a message long enough.",
        }).toString();
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            path: "/api/contact",
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              "content-length": String(Buffer.byteLength(body)),
              origin: SITE_URL,
              ...(cookie ? { cookie } : {}),
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const before = barriers;
    expect(await form()).toBeLessThan(400);
    expect(await form("session=made-up")).toBeLessThan(400);
    expect(await form("__Host-session=made-up.signature")).toBeLessThan(400);
    expect(barriers).toBe(before);
  });
});

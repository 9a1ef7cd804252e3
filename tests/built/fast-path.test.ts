// The page cache's fast path (server/fast-path.ts) against the real bundle: a hit answered at
// the node:http listener must be the response the full app gives for the same cached page,
// byte for byte but the request id and the date.
import { createServer, type Server } from "node:http";
import { gunzipSync } from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freshPglite, type TestDatabase } from "../integration/databases";
import { loadBundle, rawGet, SITE_URL, type Reply } from "./site";

/**
 * Not compared: per response, or (Cache-Control) marked private by the full app because the
 * request that forces the full app carries a session-like cookie.
 */
const PER_RESPONSE = ["x-request-id", "date", "cache-control"];
const PUBLIC = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

describe("cache hits at the listener", () => {
  let server: Server;
  let database: TestDatabase;
  let fullApp = 0;
  let cache: { invalidate(tags: "all"): void };

  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    rawGet(server, path, headers, method);
  const text = (reply: Reply) =>
    (reply.headers["content-encoding"] === "gzip" ? gunzipSync(reply.body) : reply.body).toString();
  const shared = (reply: Reply) =>
    Object.fromEntries(
      Object.entries(reply.headers).filter(([name]) => !PER_RESPONSE.includes(name)),
    );

  beforeAll(async () => {
    const { root, exports } = await loadBundle();
    const bundle = exports as typeof exports & {
      PageCache: new (options: { maxBytes: number }) => { invalidate(tags: "all"): void };
      siteListener: (
        fetch: (request: Request, env: unknown) => Response | Promise<Response>,
        cache: unknown,
      ) => Parameters<typeof createServer>[0];
    };
    database = await freshPglite();
    await database.db.execute(
      "insert into blog_posts (title, description, content) values ('Fast', 'd', '<p>Body</p>')",
    );
    const env = bundle.parseEnv({ NODE_ENV: "production", DATA_DIR: "unused", SITE_URL });
    cache = new bundle.PageCache({ maxBytes: 1 << 24 });
    const app = bundle.createSiteApp({ env, database, root, pageCache: cache as never });
    const listener = bundle.siteListener((request, env) => {
      fullApp++;
      return app.fetch(request, env as never);
    }, cache);
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.dispose();
  });

  const gzip = { "accept-encoding": "gzip, deflate, br" };

  it.each(["/", "/blog", "/blog/fast", "/rss.xml", "/robots.txt", "/blog.data"])(
    "%s: the fast hit equals the full app's hit but for id and date",
    async (path) => {
      const miss = await get(path, gzip);
      expect(miss.status).toBe(200);
      expect(miss.headers["x-page-cache"]).toBe("miss");

      const before = fullApp;
      const fast = await get(path, gzip);
      expect(fullApp).toBe(before); // answered at the listener
      // A cookie that only looks like a session sends the request through the full app.
      const full = await get(path, { ...gzip, cookie: "session=made-up" });
      expect(fullApp).toBe(before + 1);

      for (const reply of [fast, full]) {
        expect(reply.status).toBe(200);
        expect(reply.headers["x-page-cache"]).toBe("hit");
        expect(reply.headers["content-encoding"]).toBe("gzip");
      }
      expect(shared(fast)).toEqual(shared(full));
      expect(fast.headers["cache-control"]).toBe(PUBLIC);
      expect(fast.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(fast.headers["x-request-id"]).not.toBe(full.headers["x-request-id"]);
      // The same policy, scripts allowed by hash: a cached page carries no nonce.
      expect(fast.headers["content-security-policy"]).toMatch(/script-src 'sha256-/);
      expect(fast.headers["content-security-policy"]).not.toMatch(/'nonce-/);
      expect(fast.body).toEqual(full.body);
      expect(text(fast)).not.toMatch(/\snonce=/);
      expect(Number(fast.headers["content-length"])).toBe(fast.body.length);
    },
  );

  it("answers 200 hits at once, each body whole", async () => {
    await get("/", gzip);
    const before = fullApp;
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, index) => get("/", index % 2 ? gzip : {})),
    );
    expect(fullApp).toBe(before);
    const pages = new Set<string>();
    for (const reply of replies) {
      expect(reply.headers["x-page-cache"]).toBe("hit");
      expect(Number(reply.headers["content-length"])).toBe(reply.body.length);
      // gunzip checks each gzip body's CRC-32 and length.
      pages.add(text(reply));
    }
    expect(pages.size).toBe(1);
    expect([...pages][0]).toMatch(/<\/html>$/);
  });

  it("answers 304 to a matching If-None-Match, with no policy and no body, as the full app does", async () => {
    const page = await get("/blog", gzip);
    const etag = page.headers.etag!;
    const before = fullApp;
    const fast = await get("/blog", { ...gzip, "if-none-match": etag });
    expect(fullApp).toBe(before);
    const full = await get("/blog", { ...gzip, "if-none-match": etag, cookie: "session=x" });
    for (const reply of [fast, full]) {
      expect(reply.status).toBe(304);
      expect(reply.body.length).toBe(0);
      expect(reply.headers["content-security-policy"]).toBeUndefined();
    }
    expect(shared(fast)).toEqual(shared(full));
    expect(fast.headers["cache-control"]).toBe(PUBLIC);
  });

  it("sends the plain page to a client that takes no gzip, and leaves HEAD and deflate to the full app", async () => {
    await get("/blog", gzip);
    const before = fullApp;
    const plain = await get("/blog");
    expect(fullApp).toBe(before);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(text(plain)).toBe(text(await get("/blog", gzip)));
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    await get("/blog", {}, "HEAD");
    await get("/blog", { "accept-encoding": "deflate" });
    expect(fullApp).toBe(before + 2);
  });

  it("goes to the full app when the page is not cached, or for a path spelled otherwise", async () => {
    await get("/blog", gzip);
    cache.invalidate("all");
    const before = fullApp;
    expect((await get("/blog", gzip)).headers["x-page-cache"]).toBe("miss");
    expect((await get("/blog?", gzip)).status).toBe(200);
    expect(fullApp).toBe(before + 2);
  });
});

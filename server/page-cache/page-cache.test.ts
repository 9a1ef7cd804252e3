import { gunzipSync, gzipSync } from "node:zlib";

import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";

import { appRouteManifest, resolveAppRoute } from "../../tests/app-routes";
import { routing } from "../routing";
import { cacheKeyOf } from "./key";
import { tagsOfChange } from "./link";
import {
  gzipWanted,
  pageCacheMiddleware,
  PRIVATE_NO_STORE,
  PUBLIC_PAGE_CACHE_CONTROL,
} from "./middleware";
import { type Entry, PageCache } from "./store";
import { bodyOf } from "./template";

type Variables = { secureHeadersNonce?: string };

/** A site whose pages print a counter and this response's nonce, as React Router's would. */
function site(
  cache: PageCache | null,
  options: { status?: number; cookie?: boolean; degraded?: boolean } = {},
) {
  let renders = 0;
  let nonces = 0;
  const app = new Hono<{ Variables: Variables }>();
  app.use(async (c, next) => {
    c.set("secureHeadersNonce", `nonce-${++nonces}-${"x".repeat(8)}`);
    await next();
  });
  app.use(routing(async () => appRouteManifest()));
  app.use(pageCacheMiddleware(cache));
  app.get("*", async (c) => {
    renders++;
    // Let concurrent requests pile up, as a database query would.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const nonce = c.get("secureHeadersNonce");
    // As app/lib/safe.ts does through the app context when a read fails.
    const state = (c as unknown as { get(key: "renderState"): { degraded: boolean } }).get(
      "renderState",
    );
    if (options.degraded) state.degraded = true;
    if (options.cookie) c.header("Set-Cookie", "theme=dark");
    return c.html(
      `<script nonce="${nonce}">1</script><p>${c.req.path} render</p><script nonce="${nonce}">2</script>`,
      (options.status ?? 200) as 200,
    );
  });
  return { app, renders: () => renders };
}

/** The key of a path, its route resolved as the server resolves it. */
function keyOf(path: string) {
  const url = new URL(path, "http://localhost");
  return cacheKeyOf(url, resolveAppRoute(url.pathname));
}

describe("cacheKeyOf", () => {
  it.each([
    ["/", "/"],
    ["/?utm_source=linkedin&utm_medium=social", "/"],
    ["/blog/7?fbclid=abc", "/blog/7"],
    ["/blog?page=2", "/blog?page=2"],
    ["/blog?utm_source=x&page=2&q=go", "/blog?page=2&q=go"],
    ["/blog?q=go&page=2", "/blog?page=2&q=go"],
    ["/blog?q=a&q=b", "/blog?q=a"],
    ["/blog?q=hello%20world", "/blog?q=hello+world"],
    ["/blog.data?page=2&_routes=routes%2Fblog&x=1", "/blog.data?page=2&_routes=routes%2Fblog"],
    ["/_root.data?_routes=root&utm_source=x", "/_root.data?_routes=root"],
    ["/rss.xml?_routes=x", "/rss.xml"],
  ])("keys %s as %s", (path, key) => {
    expect(keyOf(path)).toBe(key);
  });

  // As the blog list's loader reads them (app/lib/pagination.ts): one page, one entry.
  it.each([
    ["/blog?q=e%20%20", "/blog?q=e"],
    ["/blog?q=%20%20e", "/blog?q=e"],
    ["/blog?q=e%00", "/blog?q=e"],
    ["/blog?q=%20", "/blog"],
    ["/blog?q=", "/blog"],
    ["/blog?page=1", "/blog"],
    ["/blog?page=1&q=", "/blog"],
    [`/blog?q=${"a".repeat(250)}`, `/blog?q=${"a".repeat(200)}`],
    [`/blog?q=${"a".repeat(200)}zzz`, `/blog?q=${"a".repeat(200)}`],
  ])("keys %s as the loader reads it: %s", (path, key) => {
    expect(keyOf(path)).toBe(key);
  });

  it("keeps a page number the loader refuses apart (it redirects, and is never stored)", () => {
    expect(keyOf("/blog?page=0")).toBe("/blog?page=0");
    expect(keyOf("/blog?page=")).toBe("/blog?page=");
  });

  it("answers a link with tracking parameters from the page everyone else gets", async () => {
    const { app, renders } = site(new PageCache({ maxBytes: 1 << 20 }));
    await app.request("/blog/7");
    const shared = await app.request("/blog/7?utm_source=linkedin&fbclid=x");
    expect(shared.headers.get("x-page-cache")).toBe("hit");
    expect(renders()).toBe(1);
    // Parameters a page reads still make pages of their own.
    await app.request("/blog?page=2&utm_source=x");
    await app.request("/blog?utm_source=y&page=2");
    await app.request("/blog?page=3");
    expect(renders()).toBe(3);
  });

  it("answers a search typed with extra spaces from the same entry, once it is kept", async () => {
    const { app, renders } = site(new PageCache({ maxBytes: 1 << 20 }));
    // A search is on probation: kept from its second request on (server/page-cache/store.ts).
    await app.request("/blog?q=e");
    await app.request("/blog?q=e%20");
    const spaced = await app.request("/blog?q=e%20%20");
    expect(spaced.headers.get("x-page-cache")).toBe("hit");
    expect(renders()).toBe(2);
  });

  it("keeps a search only from its second request within the window", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app, renders } = site(cache);
    const first = await app.request("/blog?q=once");
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(cache.get("/blog?q=once")).toBeUndefined();
    expect((await app.request("/blog?q=once")).headers.get("x-page-cache")).toBe("miss");
    expect((await app.request("/blog?q=once")).headers.get("x-page-cache")).toBe("hit");
    expect(renders()).toBe(2);
    // Pages without a search are kept at once.
    await app.request("/blog?page=2");
    expect(cache.get("/blog?page=2")).toBeDefined();
  });
});

describe("cache tags from the route policy", () => {
  const tagsOf = (path: string) => {
    const route = resolveAppRoute(path);
    return route.policy.cache === "public" ? (route.policy.tags?.(route.params) ?? []) : null;
  };
  it.each([
    ["/", ["site", "profile", "experience", "education"]],
    ["/_root.data", ["site", "profile", "experience", "education"]],
    ["/resume.json", ["site", "profile", "experience", "education"]],
    ["/blog", ["posts", "site"]],
    ["/blog.data", ["posts", "site"]],
    ["/rss.xml", ["posts", "site"]],
    ["/sitemap.xml", ["posts"]],
    ["/robots.txt", []],
    ["/blog/some-post", ["post-pages", "site"]],
    ["/blog/42", ["post-pages", "site"]],
    ["/blog/7.data", ["post-pages", "site"]],
    ["/blog/tags", ["posts", "site"]],
    ["/blog/tags/postgres", ["posts", "site"]],
    ["/blog/tags/postgres/atom.xml", ["posts", "site"]],
    ["/atom.xml", ["posts", "site"]],
    ["/feed.json", ["posts", "site"]],
  ])("tags %s with %j", (path, tags) => {
    expect(tagsOf(path)).toEqual(tags);
  });

  it.each([
    "/login",
    "/blog/new",
    "/blog/new.data",
    "/blog/1/edit",
    "/blog/1/edit.data",
    "/admin/messages",
    "/admin/profile",
    "/admin/posts",
    "/media/0123abcd.webp",
    "/api/posts",
    "/no/such/page",
  ])("does not cache %s", (path) => {
    expect(tagsOf(path)).toBeNull();
  });
});

describe("the page cache", () => {
  it("renders a page once and answers later visits from memory with a fresh nonce each", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app, renders } = site(cache);
    const first = await app.request("/blog");
    const second = await app.request("/blog");
    expect(renders()).toBe(1);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    const [a, b] = [await first.text(), await second.text()];
    expect(a).toContain('nonce="nonce-1-');
    expect(b).toContain('nonce="nonce-2-');
    expect(b).not.toContain("nonce-1-");
    expect(b.replaceAll("nonce-2-", "nonce-1-")).toBe(a);
    expect(second.headers.get("content-type")).toMatch(/^text\/html/);
    expect(second.headers.get("cache-control")).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("answers a matching If-None-Match with 304 and no body", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app } = site(cache);
    const etag = (await app.request("/")).headers.get("etag")!;
    expect(etag).toMatch(/^W\/"/);
    const revalidated = await app.request("/", { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    const changed = await app.request("/", { headers: { "If-None-Match": 'W/"other"' } });
    expect(changed.status).toBe(200);
  });

  it("shares one render among concurrent misses", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app, renders } = site(cache);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => app.request("/blog?page=2")),
    );
    expect(renders()).toBe(1);
    const bodies = await Promise.all(responses.map((r) => r.text()));
    // Every one of them still has a nonce of its own.
    expect(new Set(bodies).size).toBe(50);
  });

  it("drops the entries a change names and keeps the others", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app, renders } = site(cache);
    for (const path of ["/", "/blog", "/blog/1", "/blog/2"]) await app.request(path);
    expect(renders()).toBe(4);
    cache.invalidate(tagsOfChange("posts:2"));
    for (const path of ["/", "/blog", "/blog/1", "/blog/2"]) await app.request(path);
    // Every blog page again; / from memory.
    expect(renders()).toBe(7);
    cache.invalidate(tagsOfChange("experience"));
    for (const path of ["/", "/blog", "/blog/1"]) await app.request(path);
    // Only the home page shows experience.
    expect(renders()).toBe(8);
    cache.invalidate(tagsOfChange("posts"));
    await app.request("/blog/1");
    expect(renders()).toBe(9);
    // The owner's name is on every page.
    cache.invalidate(tagsOfChange("site"));
    for (const path of ["/", "/blog", "/blog/1", "/blog/2"]) await app.request(path);
    expect(renders()).toBe(13);
  });

  it("does not keep a render that a change overtook", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app, renders } = site(cache);
    const pending = app.request("/blog");
    await new Promise((resolve) => setTimeout(resolve, 5));
    cache.invalidate(tagsOfChange("posts:9"));
    expect((await pending).status).toBe(200);
    await app.request("/blog");
    expect(renders()).toBe(2);
  });

  it("stays within its byte bound, dropping the least recently used page", async () => {
    const cache = new PageCache({ maxBytes: 1500 });
    const { app, renders } = site(cache);
    await app.request("/blog/1");
    await app.request("/blog/2");
    await app.request("/blog/1"); // now the most recent
    for (let id = 3; id <= 12; id++) await app.request(`/blog/${id}`);
    expect(cache.totalBytes).toBeLessThanOrEqual(1500);
    expect(cache.size).toBeGreaterThan(1);
    const before = renders();
    await app.request("/blog/12");
    expect(renders()).toBe(before);
    await app.request("/blog/2");
    expect(renders()).toBe(before + 1);
  });

  it("lets the owner's requests through, marked no-store", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app, renders } = site(cache);
    await app.request("/blog");
    const owner = await app.request("/blog", { headers: { Cookie: "session=abc" } });
    expect(renders()).toBe(2);
    expect(owner.headers.get("cache-control")).toBe(PRIVATE_NO_STORE);
    expect(owner.headers.get("x-page-cache")).toBe("bypass");
    await app.request("/blog", { headers: { Cookie: "__Host-session=abc" } });
    expect(renders()).toBe(3);
  });

  it("keeps neither error pages, incomplete pages nor responses that set cookies", async () => {
    for (const options of [
      { status: 404 },
      { status: 500 },
      { cookie: true },
      { degraded: true },
    ]) {
      const cache = new PageCache({ maxBytes: 1 << 20 });
      const { app, renders } = site(cache, options);
      await app.request("/blog/5");
      const again = await app.request("/blog/5");
      expect(renders()).toBe(2);
      expect(again.headers.get("x-page-cache")).toBeNull();
      expect(cache.size).toBe(0);
    }
  });

  it("with the cache off still tells CDNs how to keep public pages", async () => {
    const { app, renders } = site(null);
    const response = await app.request("/");
    await app.request("/");
    expect(renders()).toBe(2);
    expect(response.headers.get("cache-control")).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(response.headers.get("vary")).toContain("Cookie");
  });
});

describe("cached bodies", () => {
  const fill = async (cache: PageCache, key: string, body: string, nonce: string) =>
    (
      await cache.fill(key, async () => ({
        status: 200,
        headers: [],
        parts: body.split(nonce).map((part) => Buffer.from(part)),
        etag: 'W/"x"',
        tags: [],
      }))
    ).entry!;

  // Nonces as this server makes them: 16 random bytes in base64.
  const RENDERED = "UmVuZGVyZWROb25jZTEyMw==";
  const FRESH = "bm9uY2Uvd2l0aCtiYXNlNjQ=";

  const servedBoth = (entry: Entry, nonce: string) => ({
    plain: bodyOf(entry, nonce, false).toString(),
    // gunzip checks the CRC-32 and length in the trailer too.
    gunzipped: gunzipSync(bodyOf(entry, nonce, true)).toString(),
  });

  it.each([
    ["a nonce in the middle", `<script nonce="N">1</script><p>${"text ".repeat(2000)}</p>`],
    ["nonces at both ends and side by side", "N<p>é ünïcode</p>NN<b>x</b>N"],
    ["no nonce at all", "<p>plain</p>".repeat(50)],
    ["an empty body", ""],
    ["a NUL byte (compressed without a dictionary)", "<p>a\0b</p><i nonce=N>N</i>".repeat(9)],
    [
      "nonces spread over more than DEFLATE's 32 KB window",
      Array.from(
        { length: 40 },
        (_, i) => `<link nonce="N" href="/a${i}.js">${"ab".repeat(900)}`,
      ).join(""),
    ],
  ])("splices a fresh nonce into plain and gzip bodies with %s", async (_, shape) => {
    const body = shape.replaceAll("N", RENDERED);
    const entry = await fill(new PageCache({ maxBytes: 1 << 22 }), "/", body, RENDERED);
    const expected = shape.replaceAll("N", FRESH);
    expect(servedBoth(entry, FRESH)).toEqual({ plain: expected, gunzipped: expected });
    // Every response gets its own: a second nonce leaves nothing of the first.
    const again = "YW5vdGhlci1ub25jZS0xMjM=";
    expect(servedBoth(entry, again).gunzipped).toBe(shape.replaceAll("N", again));
  });

  it("splices any page and any nonce correctly (property)", async () => {
    const nonce = fc
      .uint8Array({ minLength: 16, maxLength: 16 })
      .map((bytes) => Buffer.from(bytes).toString("base64"));
    // Text that repeats around the slots, so the compressor is tempted to match across them.
    const chunk = fc.oneof(
      fc.constantFrom('<script nonce="', '">', "</script>", "nonce", "=="),
      fc.string({ unit: "grapheme", maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(chunk, { maxLength: 30 }).map((c) => c.join("")),
          { maxLength: 12 },
        ),
        nonce,
        nonce,
        async (between, rendered, fresh) => {
          const pieces = between.map((text) => text.replaceAll("\0", ""));
          const entry = await fill(
            new PageCache({ maxBytes: 1 << 22 }),
            "/",
            pieces.join(rendered),
            rendered,
          );
          const expected = pieces.join(fresh);
          expect(servedBoth(entry, fresh)).toEqual({ plain: expected, gunzipped: expected });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("compresses a page split at 25 nonces about as well as one gzip stream", async () => {
    const body =
      Array.from(
        { length: 25 },
        (_, i) => `<link rel="modulepreload" href="/assets/chunk-${i}.js" nonce="${RENDERED}"/>`,
      ).join("") + `<main>${"<p>A paragraph about backend work in Dublin.</p>".repeat(200)}</main>`;
    const entry = await fill(new PageCache({ maxBytes: 1 << 22 }), "/", body, RENDERED);
    const spliced = bodyOf(entry, FRESH, true).length;
    const oneStream = gzipSync(body.replaceAll(RENDERED, FRESH)).length;
    // Each slot costs its nonce's 24 bytes as they are, its stored block's 5 header bytes, the
    // sync flush's 5 and a new block's header; one stream also compresses the 25 equal nonces.
    // Compressed part by part without the dictionary, this page takes 2,520 bytes.
    expect(spliced).toBeLessThanOrEqual(oneStream * 1.05 + 25 * 45);
  });

  it("keeps a large page's gzip small", async () => {
    const body = `<script nonce="${RENDERED}">1</script>${"<p>the same paragraph again</p>".repeat(3000)}`;
    const entry = await fill(new PageCache({ maxBytes: 1 << 24 }), "/", body, RENDERED);
    expect(bodyOf(entry, FRESH, true).length).toBeLessThan(body.length / 20);
  });

  it("joins and compresses a nonce of another length as it is", async () => {
    const entry = await fill(new PageCache({ maxBytes: 1 << 20 }), "/", "aNbNc", "N");
    expect(bodyOf(entry, "xyz", false).toString()).toBe("axyzbxyzc");
    expect(gunzipSync(bodyOf(entry, "xyz", true)).toString()).toBe("axyzbxyzc");
  });

  it.each([
    [undefined, false],
    ["", false],
    ["gzip, deflate, br", true],
    ["br;q=1, gzip;q=0.5", true],
    ["*", true],
    ["gzip;q=0", false],
    ["gzip;q=0, deflate", null],
    ["deflate", null],
    ["identity", false],
  ])("Accept-Encoding %j: gzip %j", (header, wanted) => {
    expect(gzipWanted(header)).toBe(wanted);
  });
});

import { Hono } from "hono";
import { describe, expect, it } from "vitest";

import { withWholeBody } from "../../app/lib/whole-body";
import { appRouteManifest } from "../../tests/app-routes";
import { routing } from "../routing";
import { tagsOfChange } from "./link";
import {
  gzipWanted,
  pageCacheMiddleware,
  PRIVATE_NO_STORE,
  PUBLIC_PAGE_CACHE_CONTROL,
} from "./middleware";
import { PageCache } from "./store";

/** A site whose pages print how many renders there have been. */
function site(
  cache: PageCache | null,
  options: { status?: number; cookie?: boolean; degraded?: boolean; whole?: boolean } = {},
) {
  let renders = 0;
  const app = new Hono();
  app.use(routing(async () => appRouteManifest()));
  app.use(pageCacheMiddleware(cache));
  app.get("*", async (c) => {
    renders++;
    // Let concurrent requests pile up, as a database query would.
    await new Promise((resolve) => setTimeout(resolve, 20));
    // As app/lib/safe.ts does through the app context when a read fails.
    const state = (c as unknown as { get(key: "renderState"): { degraded: boolean } }).get(
      "renderState",
    );
    if (options.degraded) state.degraded = true;
    if (options.cookie) c.header("Set-Cookie", "theme=dark");
    const html = `<script>1</script><p>${c.req.path} render ${renders}</p><script>2</script>`;
    if (options.whole) {
      // As app/entry.server.tsx answers: the bytes carried beside a body that is not read.
      const bytes = Buffer.from(html);
      const unread = new ReadableStream<Uint8Array>(
        { pull: () => Promise.reject(new Error("the body was read")) },
        { highWaterMark: 0 },
      );
      const headers = { "Content-Type": "text/html; charset=UTF-8" };
      return withWholeBody(new Response(unread, { headers }), bytes);
    }
    return c.html(html, (options.status ?? 200) as 200);
  });
  return { app, renders: () => renders };
}

describe("the page cache's keys, in use", () => {
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
    const first = await app.request("/blog?q=e");
    expect(first.headers.get("x-page-cache")).toBe("miss");
    const second = await app.request("/blog?q=e%20&fbclid=1");
    expect(second.headers.get("x-page-cache")).toBe("miss");
    const spaced = await app.request("/blog?q=e%20%20&utm_source=x");
    expect(spaced.headers.get("x-page-cache")).toBe("hit");
    expect(renders()).toBe(2);
    expect(await spaced.text()).toBe(await second.text());
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

describe("the page cache", () => {
  it("renders a page once and answers later visits from memory, byte for byte", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app, renders } = site(cache);
    const first = await app.request("/blog");
    const second = await app.request("/blog");
    expect(renders()).toBe(1);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    const [a, b] = [await first.text(), await second.text()];
    expect(a).toContain("<p>/blog render 1</p>");
    expect(b).toBe(a);
    expect(second.headers.get("content-type")).toMatch(/^text\/html/);
    expect(second.headers.get("cache-control")).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("keeps a document's own bytes without reading its body", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { app, renders } = site(cache, { whole: true });
    const first = await app.request("/blog");
    const second = await app.request("/blog");
    expect(renders()).toBe(1);
    const page = await first.text();
    expect(page).toContain("<p>/blog render 1</p><script>");
    expect(await second.text()).toBe(page);
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
    expect(new Set(bodies)).toEqual(
      new Set(["<script>1</script><p>/blog render 1</p><script>2</script>"]),
    );
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

describe("gzipWanted", () => {
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

import { describe, expect, it } from "vitest";

import { PageCache } from "./store";

const page = () => ({
  status: 200,
  headers: [] as [string, string][],
  etag: 'W/"x"',
  tags: ["posts"] as const,
  body: Buffer.from("<!doctype html><p>a page</p>"),
});

/**
 * A cache bounded to exactly four pages of `page()` under keys as long as "/p/a" (a longer
 * key makes a page larger than a quarter of the cache, which is never kept).
 */
async function cacheOfFourPages() {
  const probe = new PageCache({ maxBytes: 1 << 20 });
  const { entry } = await probe.fill("/p/a", async () => page());
  const cache = new PageCache({ maxBytes: 4 * entry!.bytes });
  const store = (key: string) => cache.fill(key, async () => page());
  const kept = (keys: string[]) => keys.filter((key) => cache.get(key) !== undefined);
  return { cache, store, kept };
}

describe("the page cache's order of leaving", () => {
  it("keeps the pages being read and lets the unread ones go first", async () => {
    const { cache, store, kept } = await cacheOfFourPages();
    for (const key of ["/p/a", "/p/b", "/p/c", "/p/d"]) await store(key);
    // b and a are read, over and over; c and d never again.
    for (let i = 0; i < 50; i++) {
      cache.get("/p/b");
      cache.get("/p/a");
    }
    await store("/p/e");
    await store("/p/f");
    expect(cache.size).toBe(4);
    expect(kept(["/p/a", "/p/b", "/p/c", "/p/d", "/p/e", "/p/f"])).toEqual([
      "/p/a",
      "/p/b",
      "/p/e",
      "/p/f",
    ]);
  });

  it("keeps a page read while it was among the oldest over every page stored before the read", async () => {
    const { cache, store, kept } = await cacheOfFourPages();
    for (const key of ["/p/a", "/p/b", "/p/c", "/p/d"]) await store(key);
    cache.get("/p/a"); // the oldest, read: now the newest
    await store("/p/e");
    await store("/p/f");
    await store("/p/g");
    expect(kept(["/p/a", "/p/b", "/p/c", "/p/d"])).toEqual(["/p/a"]);
  });

  it("lets a page just stored go first when every other page has been read since", async () => {
    const { cache, store, kept } = await cacheOfFourPages();
    for (const key of ["/p/a", "/p/b", "/p/c", "/p/d"]) await store(key);
    for (const key of ["/p/a", "/p/b", "/p/c", "/p/d"]) cache.get(key);
    // A crawler's page: served, but the four pages being read stay (a get of a missing page
    // marks nothing; a get of a kept one would).
    const { entry } = await store("/p/x");
    expect(entry).not.toBeNull();
    expect(kept(["/p/x"])).toEqual([]);
    expect(cache.size).toBe(4);
    // The sweep cleared their marks: the next page stays, and the oldest unread one goes.
    await store("/p/y");
    expect(kept(["/p/a", "/p/b", "/p/c", "/p/d", "/p/y"])).toEqual([
      "/p/b",
      "/p/c",
      "/p/d",
      "/p/y",
    ]);
  });
});

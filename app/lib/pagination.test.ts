import { describe, expect, it } from "vitest";

import { blogHref, paginationItems } from "./pagination";

describe("paginationItems", () => {
  it("lists every page when there are at most 7", () => {
    expect(paginationItems(1, 1)).toEqual([1]);
    expect(paginationItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it("shows first, last, neighbours and gaps when there are many", () => {
    expect(paginationItems(1, 20_000)).toEqual([1, 2, 3, 4, 5, "gap", 20_000]);
    expect(paginationItems(10_000, 20_000)).toEqual([
      1,
      "gap",
      9_999,
      10_000,
      10_001,
      "gap",
      20_000,
    ]);
    expect(paginationItems(20_000, 20_000)).toEqual([
      1,
      "gap",
      19_996,
      19_997,
      19_998,
      19_999,
      20_000,
    ]);
    expect(paginationItems(4, 9)).toEqual([1, 2, 3, 4, 5, "gap", 9]);
    expect(paginationItems(6, 9)).toEqual([1, "gap", 5, 6, 7, 8, 9]);
  });
  it("always includes the current page, and never more than 7 items", () => {
    for (const count of [8, 9, 12, 100, 20_000]) {
      for (let current = 1; current <= Math.min(count, 60); current++) {
        const items = paginationItems(current, count);
        expect(items).toContain(current);
        expect(items.length).toBeLessThanOrEqual(7);
        const numbers = items.filter((i): i is number => i !== "gap");
        expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      }
    }
  });
});

describe("blogHref", () => {
  it("leaves out page 1 and an empty search", () => {
    expect(blogHref({})).toBe("/blog");
    expect(blogHref({ page: 1, search: "" })).toBe("/blog");
    expect(blogHref({ page: 3 })).toBe("/blog?page=3");
    expect(blogHref({ page: 2, search: "a b&c" })).toBe("/blog?q=a+b%26c&page=2");
  });
});

import { describe, expect, it } from "vitest";

import { resolveAppRoute } from "../../tests/app-routes";
import { cacheKeyOf } from "./key";

// What the page cache files a path under: its key (the query parameters its page reads, as its
// loader reads them) and its tags (what the page shows, from app/route-policy.ts).

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

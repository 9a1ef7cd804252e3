import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { Route as BlogRoute } from "../../app/routes/+types/blog";
import type { Route as PostRoute } from "../../app/routes/+types/blog.post";
import { loader as blogLoader } from "../../app/routes/blog";
import { loader as postLoader } from "../../app/routes/blog.post";
import { blogPosts } from "../../database/schema";
import { freshPglite, routeContext, type TestDatabase } from "./databases";

/** React Router's `data()` results carry the status in `init`. */
function statusOf(result: unknown): number {
  const init = (result as { init?: { status?: number } | null }).init;
  return init?.status ?? 200;
}

describe("the blog loaders", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshPglite();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await database.dispose();
  });

  const list = (query: string) =>
    blogLoader({
      request: new Request(`http://localhost/blog${query}`),
      context: routeContext(database),
      params: {},
    } as unknown as BlogRoute.LoaderArgs);

  it("logs a database error and answers 500 with the empty list", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await database.db.execute("drop table blog_stats");
    const result = await list("");
    expect(statusOf(result)).toBe(500);
    expect((result as { data: { posts: unknown[] } }).data.posts).toEqual([]);
    expect(logged.mock.calls[0]?.[0]).toBe("Error fetching posts:");
  });

  it("redirects a page that is not a positive integer to page 1, keeping the search", async () => {
    await expect(list("?page=0&q=a%20b")).rejects.toSatisfy(
      (r: Response) => r.status === 302 && r.headers.get("location") === "/blog?q=a+b",
    );
  });

  it("answers 404 past the last page, and 200 for the first page of an empty blog", async () => {
    expect(statusOf(await list(""))).toBe(200);
    expect(statusOf(await list("?page=2"))).toBe(404);
  });

  it("sanitizes a stored post again when it is read", async () => {
    const [row] = await database.db
      .insert(blogPosts)
      .values({
        title: "t",
        content: '<p onclick="x()">ok</p><script>alert(1)</script>',
        contentEn: "   ",
      })
      .returning();
    const result = (await postLoader({
      request: new Request(`http://localhost/blog/${row!.id}`),
      context: routeContext(database),
      params: { id: String(row!.id) },
    } as unknown as PostRoute.LoaderArgs)) as {
      post: { content: string; contentEn: string | null };
    };
    expect(result.post.content).toBe("<p>ok</p>");
    // A blank English version counts as none: no badge, no toggle.
    expect(result.post.contentEn).toBeNull();
  });
});

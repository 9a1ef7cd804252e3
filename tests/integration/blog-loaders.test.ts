import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { Route as BlogRoute } from "../../app/routes/+types/blog";
import type { Route as PostRoute } from "../../app/routes/+types/blog.post";
import { loader as blogLoader } from "../../app/routes/blog";
import type { Route as EditRoute } from "../../app/routes/+types/blog.edit";
import { loader as editLoader } from "../../app/routes/blog.edit";
import { loader as postLoader } from "../../app/routes/blog.post";
import { sessionCookie } from "../../app/features/owner/session.server";
import { setOwnerPassword, signIn } from "../../app/features/owner/auth.server";
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
      request: new Request(`http://localhost/blog/${row!.slug}`),
      context: routeContext(database),
      params: { slug: row!.slug },
    } as unknown as PostRoute.LoaderArgs)) as {
      post: { content: { html: string }; contentEn: { html: string } | null };
    };
    expect(result.post.content.html).toBe("<p>ok</p>");
    // A blank English version counts as none: no badge, no toggle.
    expect(result.post.contentEn).toBeNull();
  });

  it("the editor gets stored HTML sanitized again, even a row written around the API", async () => {
    const [row] = await database.db
      .insert(blogPosts)
      .values({
        title: "Raw",
        content: '<p>Kept</p><img src=x onerror="alert(1)"><script>alert(2)</script>',
      })
      .returning({ id: blogPosts.id });
    await setOwnerPassword(database.db, "owner-password");
    const session = await signIn(database.db, "owner-password", "127.0.0.1");
    if (!session.ok) throw new Error("sign-in failed");
    const context = routeContext(database);
    const cookie = await sessionCookie(context).serialize(session.sessionId);
    const result = (await editLoader({
      request: new Request(`http://localhost/blog/${row!.id}/edit`, { headers: { cookie } }),
      context,
      params: { id: String(row!.id) },
    } as unknown as EditRoute.LoaderArgs)) as { post: { content: string } };
    expect(result.post.content).toContain("<p>Kept</p>");
    expect(result.post.content).not.toMatch(/onerror|<script|alert/);
  });
});

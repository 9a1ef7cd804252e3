// The route policy (app/route-policy.ts) against the real bundle: non-canonical spellings
// answer one 301, to where the page is, before anything renders; each route gets its own body
// limit and privacy; and the production build carries no test-only route.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { formatBytes } from "../../app/lib/format";
import { BODY_LIMITS } from "../../app/lib/limits";
import { freshPglite, type TestDatabase } from "../integration/databases";
import { loadBundle, SITE_URL } from "./site";

describe("the route policy in the production bundle", () => {
  let database: TestDatabase;
  let app: { request(path: string, init?: RequestInit): Response | Promise<Response> };
  let root: string;
  let pageCache: { invalidate(tags: "all"): void };

  beforeAll(async () => {
    const bundle = await loadBundle();
    root = bundle.root;
    const exports = bundle.exports as typeof bundle.exports & {
      PageCache: new (options: { maxBytes: number }) => typeof pageCache;
    };
    database = await freshPglite();
    await database.db.execute(
      "insert into blog_posts (title, description, content) values ('Routed', 'd', '<p>Body</p>')",
    );
    await database.db.execute(
      "insert into blog_posts (title, description, content, status, published_at) values ('Secret draft', 'd', '<p>Body</p>', 'draft', null)",
    );
    const env = exports.parseEnv({ NODE_ENV: "production", DATA_DIR: "unused", SITE_URL });
    pageCache = new exports.PageCache({ maxBytes: 1 << 24 });
    app = exports.createSiteApp({ env, database, root, pageCache: pageCache as never });
  });
  afterAll(() => database.dispose());
  beforeEach(() => pageCache.invalidate("all"));

  it.each([
    ["/BLOG/routed", "/blog/routed"],
    ["/blog/routed/", "/blog/routed"],
    ["/blog/%72outed", "/blog/routed"],
    // A post's id moves to its slug: in the same hop, not through /blog/1's own 301.
    ["/BLOG/1", "/blog/routed"],
    ["/blog/1/", "/blog/routed"],
    ["/blog/%31", "/blog/routed"],
    ["/RSS.XML", "/rss.xml"],
    ["/Blog?q=Routed", "/blog?q=Routed"],
  ])("%s answers one 301 to %s and renders nothing", async (spelled, canonical) => {
    const moved = await app.request(spelled);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(canonical);
    expect(moved.headers.get("x-page-cache")).toBeNull();
    expect(await moved.text()).toBe("");
    // The canonical page was not rendered (nor stored) on the way: its first request renders it.
    const page = await app.request(canonical);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-page-cache")).toBe("miss");
    await page.text();
  });

  it("moves a draft's id only as far as its canonical spelling: its slug is the owner's", async () => {
    const moved = await app.request("/BLOG/2");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/blog/2");
    expect((await app.request("/blog/2")).status).toBe(404);
  });

  it("marks private routes and their data requests no-store, whoever asks", async () => {
    for (const page of ["/login", "/blog/new.data", "/blog/1/edit.data", "/admin/messages"]) {
      const response = await app.request(page);
      expect(response.headers.get("cache-control"), page).toBe("private, no-store");
      await response.body?.cancel();
    }
  });

  it("gives the post API the post limit and every other route the form limit", async () => {
    const between = "x".repeat(BODY_LIMITS.form + 1024);
    const json = { "content-type": "application/json" };
    const contact = await app.request("/api/contact", {
      method: "POST",
      headers: json,
      body: between,
    });
    expect(contact.status).toBe(413);
    expect(((await contact.json()) as { error: string }).error).toBe(
      `The request body is larger than ${formatBytes(BODY_LIMITS.form)}.`,
    );
    // Within the post limit: past the body check, refused only for want of a session.
    const post = await app.request("/api/posts", { method: "POST", headers: json, body: between });
    expect(post.status).toBe(401);
    await post.body?.cancel();
  });

  it("has no test-only route, neither answering nor in the bundle", async () => {
    for (const page of ["/__test/toast", "/__test/posts", "/__test/slow?ms=1"]) {
      const response = await app.request(page);
      expect(response.status, page).toBe(404);
      await response.body?.cancel();
    }
    const serverDir = path.join(root, "build/server");
    const files = readdirSync(serverDir, { recursive: true, encoding: "utf8" });
    for (const file of files.filter((name) => name.endsWith(".js"))) {
      expect(readFileSync(path.join(serverDir, file), "utf8"), file).not.toMatch(/__test\//);
    }
    const clientFiles = readdirSync(path.join(root, "build/client"), { recursive: true });
    expect(clientFiles.filter((name) => /test[.-](toast|error)/.test(String(name)))).toEqual([]);
  });
});

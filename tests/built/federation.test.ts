// The ActivityPub side as the production bundle serves it: the home page and posts link their
// ActivityPub documents, answer them to an ActivityPub Accept (and HTML to browsers, the same
// URLs, `Vary: Accept`), and a cached page never answers an ActivityPub request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type * as ServerApp from "../../server/app";
import { freshPglite, type TestDatabase } from "../integration/databases";
import { loadBundle, SITE_URL } from "./site";

const AP = "application/activity+json";
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("federation in the production bundle", () => {
  let database: TestDatabase;
  let app: { request(path: string, init?: RequestInit): Response | Promise<Response> };
  let postId: number;

  beforeAll(async () => {
    const { root, exports } = await loadBundle();
    const bundle = exports as typeof exports & Pick<typeof ServerApp, "PageCache">;
    database = await freshPglite();
    const rows = await database.db.execute<{ id: number }>(
      `insert into blog_posts (title, slug, description, content) values ('Federated', 'federated', 'About it', '<p>Body</p>') returning id`,
    );
    postId = Number((rows as unknown as { rows: { id: number }[] }).rows[0]!.id);
    const pageCache = new bundle.PageCache({ maxBytes: 8 << 20 });
    const env = bundle.parseEnv({ NODE_ENV: "production", DATA_DIR: "unused", SITE_URL });
    app = bundle.createSiteApp({ env, database, root, pageCache });
  });
  afterAll(() => database?.dispose());

  const get = (path: string, accept: string) =>
    Promise.resolve(app.request(`${SITE_URL}${path}`, { headers: { accept } }));

  it("links the actor from the home page and the Article from a post, and answers each to ActivityPub", async () => {
    const actor = `${SITE_URL}/ap/users/owner`;
    const article = `${SITE_URL}/ap/posts/${postId}`;
    for (const [path, href] of [
      ["/", actor],
      ["/blog/federated", article],
    ] as const) {
      // Twice: the second answer comes from the page cache.
      for (const round of [1, 2]) {
        const page = await get(path, BROWSER);
        expect(page.status, `${path} ${round}`).toBe(200);
        expect(page.headers.get("content-type")).toContain("text/html");
        expect(page.headers.get("vary")).toContain("Accept");
        if (round === 2) expect(page.headers.get("x-page-cache")).toBe("hit");
        const html = await page.text();
        expect(html).toContain(
          `<link rel="alternate" type="application/activity+json" href="${href}"/>`,
        );
      }
      const answer = await get(path, AP);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toContain("application/activity+json");
      expect(answer.headers.get("vary")).toContain("Accept");
      expect(((await answer.json()) as { id: string }).id).toBe(href);
    }
  });

  it("sends a browser asking an ActivityPub URL to the pages", async () => {
    const page = await get("/ap/users/owner", BROWSER);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.status).toBe(404);
  });
});

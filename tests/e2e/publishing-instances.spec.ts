import { expect, request as playwrightRequest, test } from "@playwright/test";

import { signInRequest } from "./owner";
import { freshDatabase, serveOn } from "./processes";

/**
 * A scheduled post goes public by itself on every instance: two servers on one PostgreSQL, a
 * post scheduled 5 seconds ahead, and from then on only anonymous readers. Both instances' cached
 * blog list and feeds show it at its time, with no request from the owner and no restart.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

test.describe("scheduled publishing across server processes (PostgreSQL)", () => {
  test.skip(!TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: these tests need PostgreSQL");
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  let database: Awaited<ReturnType<typeof freshDatabase>>;
  test.beforeAll(async () => {
    database = await freshDatabase("publishing");
  });
  test.afterAll(() => database.drop());

  // The test reads X-Page-Cache, which production leaves out.
  const serve = (port: number) => serveOn(port, database.url, { PAGE_CACHE_HEADER: "true" });

  test("a post scheduled 5 s ahead appears on both instances, cached pages included, with no request from the owner", async () => {
    const one = await serve(3233);
    const two = await serve(3234);
    try {
      const title = `Scheduled ${Date.now().toString(36)}`;
      const owner = await playwrightRequest.newContext({ baseURL: one.base });
      await signInRequest(owner);
      const at = new Date(Date.now() + 5_000);
      const created = await owner.post("/api/posts", {
        data: {
          title,
          description: "Goes public by itself.",
          content: "<p>Written ahead.</p>",
          tags: ["timing"],
          publish: { mode: "at", at: at.toISOString() },
        },
      });
      expect(created.status()).toBe(201);
      const { slug, status } = (await created.json()) as { slug: string; status: string };
      expect(status).toBe("scheduled");
      // From here on the owner does nothing.
      await owner.dispose();

      const pages = ["/blog", "/rss.xml", "/atom.xml", "/feed.json", "/sitemap.xml"];
      const read = async (base: string, path: string) => {
        const response = await fetch(`${base}${path}`);
        return { text: await response.text(), cache: response.headers.get("x-page-cache") };
      };
      // Both instances hold every page without the post, cached (a later read is a hit; a
      // change notice from the post's own save may still arrive and drop a page once).
      for (const { base } of [one, two]) {
        for (const path of pages) {
          expect((await read(base, path)).text, `${base}${path}`).not.toContain(title);
          await expect
            .poll(async () => (await read(base, path)).cache, { message: `${base}${path}` })
            .toBe("hit");
        }
        expect((await fetch(`${base}/blog/${slug}`)).status).toBe(404);
      }

      // Only anonymous reads from now on; each instance shows the post once its time has come.
      const seenAt: Record<string, number> = {};
      await Promise.all(
        [one, two].map(async ({ base }) => {
          await expect
            .poll(async () => (await read(base, "/blog")).text.includes(title), {
              timeout: 15_000,
              intervals: [100],
            })
            .toBe(true);
          seenAt[base] = Date.now();
        }),
      );
      for (const { base } of [one, two]) {
        // Not before its time, and within a few seconds of it (a timer's slack, CI's load).
        expect(seenAt[base]!).toBeGreaterThanOrEqual(at.getTime());
        expect(seenAt[base]! - at.getTime()).toBeLessThan(5_000);
        for (const path of pages) {
          const url = path === "/sitemap.xml" ? `/blog/${slug}` : title;
          expect((await read(base, path)).text, `${base}${path}`).toContain(url);
        }
        const post = await fetch(`${base}/blog/${slug}`);
        expect(post.status).toBe(200);
        expect(await post.text()).toContain("Written ahead.");
        expect((await read(base, "/blog/tags/timing")).text).toContain(title);
      }
    } finally {
      for (const { server } of [one, two]) {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    }
  });
});

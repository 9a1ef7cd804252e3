// A post the owner deletes, against the real bundle behind its node:http listener with the page
// cache linked to the database's change notices, as production runs it: gone for visitors at
// once (410 at each of its URLs, out of every list, feed, sitemap, tag page and search, cached
// ones included), back at the same URL after Restore, and 404 after Delete forever.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { linkPageCache } from "../../server/page-cache/link";
import { drivers, queryRows, skipReason, type TestDatabase } from "../integration/databases";
import { loadBundle, OWNER_PASSWORD, SITE_URL } from "./site";

type Reply = { status: number; headers: Record<string, string>; text: string };

const FORM = "application/x-www-form-urlencoded";
const PUBLIC = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

/** The trashed post's slugs (its current and an old one) and the word only it holds. */
const SLUG = "vanishing-post";
const OLD_SLUG = "first-vanishing-post";
const WORD = "quokka";
/** Every public page that lists the post, and what it shows of it there. */
const LISTS = [
  "/blog",
  `/blog?q=${WORD}`,
  "/blog/tags",
  "/blog/tags/shared",
  "/blog/tags/shared/rss.xml",
  "/blog/tags/shared/atom.xml",
  "/blog/tags/shared/feed.json",
  "/rss.xml",
  "/atom.xml",
  "/feed.json",
  "/sitemap.xml",
];

for (const driver of drivers) {
  const reason = skipReason(driver);
  describe.skipIf(reason !== null)(
    `a trashed post through the built server on ${driver.name}`,
    () => {
      let server: Server;
      let database: TestDatabase;
      let closeLink: () => Promise<void>;
      let cookie = "";
      let id = 0;

      /** One request over a socket, as a client sends it (no Origin: not a browser's). */
      const send = (
        method: string,
        path: string,
        { body, owner = false }: { body?: string; owner?: boolean } = {},
      ) => {
        const { port } = server.address() as AddressInfo;
        const headers: Record<string, string> = {};
        if (owner) headers.cookie = cookie;
        if (body !== undefined) {
          headers["content-type"] = FORM;
          headers["content-length"] = String(Buffer.byteLength(body));
        }
        return new Promise<Reply>((resolve, reject) => {
          const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => {
              const flat: Record<string, string> = {};
              for (const [name, value] of Object.entries(res.headers)) flat[name] = String(value);
              resolve({
                status: res.statusCode ?? 0,
                headers: flat,
                text: Buffer.concat(chunks).toString(),
              });
            });
          });
          req.on("error", reject);
          req.end(body);
        });
      };
      /** A visitor's page, asked for until the page cache answers it (a search is kept on its second ask). */
      const cached = async (path: string) => {
        for (let ask = 0; ask < 3; ask++) {
          const reply = await send("GET", path);
          expect(reply.status, path).toBe(200);
          if (reply.headers["x-page-cache"] === "hit") return reply;
        }
        throw new Error(`${path} was never answered from the cache`);
      };
      const restore = (intent: "restore" | "delete") =>
        send("POST", "/admin/posts/trash", {
          owner: true,
          body: new URLSearchParams({ intent, id: String(id) }).toString(),
        });

      beforeAll(async () => {
        const { root, exports } = await loadBundle();
        const bundle = exports as typeof exports & {
          PageCache: new (options: { maxBytes: number }) => unknown;
          siteListener: (
            fetch: (request: Request, env: unknown) => Response | Promise<Response>,
            cache: unknown,
            options: { showCacheStatus: boolean },
          ) => Parameters<typeof createServer>[0];
        };
        database = await driver.fresh();
        for (const statement of [
          `insert into blog_posts (title, description, content, slug, created_at) values
           ('Keeper post', 'Stays', '<p>Kept body.</p>', 'keeper-post', now() - interval '2 days'),
           ('Vanishing post', 'Goes', '<p>A ${WORD} lives here.</p>', '${OLD_SLUG}', now() - interval '1 day')`,
          `update blog_posts set slug = '${SLUG}' where slug = '${OLD_SLUG}'`,
          `insert into post_tags (post_id, tag, position)
           select id, 'shared', 0 from blog_posts
           union all select id, 'only-vanishing', 1 from blog_posts where slug = '${SLUG}'`,
        ]) {
          await database.db.execute(statement);
        }
        const [row] = await queryRows<{ id: number }>(
          database.db,
          `select id from blog_posts where slug = '${SLUG}'`,
        );
        id = row!.id;
        await bundle.setOwnerPassword(database.db, OWNER_PASSWORD);
        const env = bundle.parseEnv({
          NODE_ENV: "production",
          DATA_DIR: "unused",
          SITE_URL,
          PAGE_CACHE_HEADER: "true",
        });
        const cache = new bundle.PageCache({ maxBytes: 1 << 24 });
        // As server/app.ts links them: the database's notices drop pages, and the owner's write
        // is answered once its own notice has arrived.
        const link = await linkPageCache(cache as never, database);
        closeLink = link.close;
        const app = bundle.createSiteApp({
          env,
          database,
          root,
          pageCache: cache as never,
          afterOwnerWrite: link.barrier,
        });
        server = createServer(
          bundle.siteListener((request, e) => app.fetch(request, e as never), cache, {
            showCacheStatus: true,
          }),
        );
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const signIn = await send("POST", "/login", {
          body: new URLSearchParams({ password: OWNER_PASSWORD }).toString(),
        });
        expect(signIn.status).toBe(302);
        cookie = (signIn.headers["set-cookie"] ?? "").split(";")[0]!;
      });
      afterAll(async () => {
        await new Promise((resolve) => server.close(resolve));
        await closeLink();
        await database.dispose();
      });

      it("is gone for visitors at once, cached pages included; Restore brings it back at its URL; Delete forever leaves 404", async () => {
        // Visitors see it everywhere, from the cache.
        expect((await cached(`/blog/${SLUG}`)).text).toContain("Vanishing post");
        expect((await send("GET", `/blog/${OLD_SLUG}`)).status).toBe(301);
        for (const path of LISTS)
          expect((await cached(path)).text, path).toContain(SLUG.slice(0, 9));
        expect((await cached("/blog/tags")).text).toContain("only-vanishing");

        const deleted = await send("DELETE", `/api/posts/${id}`, { owner: true });
        expect(deleted.status).toBe(200);

        // Its URLs answer 410 with the not-found page, from no cache, to no CDN.
        for (const segment of [SLUG, OLD_SLUG, String(id)]) {
          for (let ask = 0; ask < 2; ask++) {
            const gone = await send("GET", `/blog/${segment}`);
            expect(gone.status, segment).toBe(410);
            expect(gone.text).toContain("Post not found");
            expect(gone.text).not.toContain("A quokka");
            expect(gone.headers["x-page-cache"]).not.toBe("hit");
            expect(gone.headers["cache-control"]).not.toBe(PUBLIC);
          }
        }
        for (const path of LISTS) {
          const page = await send("GET", path);
          expect(page.status, path).toBe(200);
          expect(page.text, path).not.toContain(SLUG.slice(0, 9));
          expect(page.text, path).not.toContain("Vanishing post");
        }
        expect((await send("GET", "/blog")).text).toContain("Keeper post");
        expect((await send("GET", "/blog/tags")).text).not.toContain("only-vanishing");

        // Restore: back at the same URL, in every list again.
        const restored = await restore("restore");
        expect(restored.status).toBe(200);
        expect(restored.text).toContain("is restored.");
        const back = await send("GET", `/blog/${SLUG}`);
        expect(back.status).toBe(200);
        expect(back.text).toContain("A quokka lives here.");
        expect((await send("GET", `/blog/${OLD_SLUG}`)).headers.location).toBe(`/blog/${SLUG}`);
        for (const path of LISTS) {
          expect((await send("GET", path)).text, path).toContain(SLUG.slice(0, 9));
        }

        // Delete forever: nothing is left, so nothing was (404, not 410).
        expect((await send("DELETE", `/api/posts/${id}`, { owner: true })).status).toBe(200);
        const forever = await restore("delete");
        expect(forever.status).toBe(200);
        expect(forever.text).toContain("is deleted forever.");
        for (const segment of [SLUG, OLD_SLUG, String(id)]) {
          expect((await send("GET", `/blog/${segment}`)).status, segment).toBe(404);
        }
        // A second Delete of what is gone is refused.
        expect((await send("DELETE", `/api/posts/${id}`, { owner: true })).status).toBe(404);
      });
    },
  );
}

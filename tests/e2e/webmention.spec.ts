import { createServer, type Server } from "node:http";

import AxeBuilder from "@axe-core/playwright";
import { mf2 } from "microformats-parser";
import pg from "pg";

import { SOCIAL_TEXT } from "../../app/features/social/admin";
import { RESPONSES_TEXT } from "../../app/features/social/responses";
import { expect, test } from "./fixtures";
import { signInPage } from "./owner";
import { freshDatabase, serveOn } from "./processes";

/**
 * Webmention end to end, on a server of its own (PostgreSQL, FETCH_ALLOW_PRIVATE so it may
 * fetch loopback): a loopback page that replies to a post finds the endpoint the post page
 * advertises and sends a Webmention; the site verifies it, the owner sees it in /admin/social
 * and approves it, and it shows under the post, in the cached page too. A source that does not
 * link to the post is dropped.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const PORT = Number(process.env.E2E_PORT_BASE ?? 3210) + 36;
/** The other site, on loopback. */
const PEER_PORT = PORT + 1;
const PEER = `http://127.0.0.1:${PEER_PORT}`;

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test.describe("Webmention", () => {
  test.skip(!TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: this test needs PostgreSQL");

  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let server: Awaited<ReturnType<typeof serveOn>>["server"];
  let peer: Server;
  const pages = new Map<string, string>();
  const query = async <T>(sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows as T[];
    } finally {
      await client.end();
    }
  };

  test.beforeAll(async () => {
    database = await freshDatabase("webmention");
    ({ server } = await serveOn(PORT, database.url, {
      FETCH_ALLOW_PRIVATE: "true",
      PAGE_CACHE_HEADER: "true",
    }));
    peer = createServer((req, res) => {
      const html = pages.get(req.url ?? "");
      res.writeHead(html === undefined ? 404 : 200, { "content-type": "text/html" });
      res.end(html ?? "");
    });
    await new Promise<void>((resolve) => peer.listen(PEER_PORT, "127.0.0.1", resolve));
  });

  test.afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await new Promise((resolve) => peer?.close(resolve));
    await database?.drop();
  });

  test("a reply from another site is verified, moderated, and shown once approved", async ({
    page,
    browser,
    request,
  }) => {
    const seeded = await request.post("/__test/posts", {
      data: { posts: [{ title: "Mentioned here", content: "<p>A post to answer.</p>" }] },
    });
    const [postId] = ((await seeded.json()) as { ids: number[] }).ids;
    const postPage = await request.get(`/blog/${postId}`);
    const target = postPage.url();
    expect(target).toMatch(/\/blog\/mentioned-here$/);
    // Read anonymously, so the page is cached before the reply exists.
    expect(await postPage.text()).not.toContain(RESPONSES_TEXT.heading);

    // The sender discovers the endpoint from the post page, as the spec says.
    const link = postPage.headers()["link"] ?? "";
    const endpoint = /<([^>]+)>;\s*rel="?webmention"?/.exec(link)?.[1];
    expect(endpoint).toBe(`http://127.0.0.1:${PORT}/webmention`);
    expect(await postPage.text()).toContain(`<link rel="webmention" href="${endpoint}"/>`);

    // The post is an h-entry with its author's h-card; the home page is the owner's h-card.
    const [entry] = mf2(await postPage.text(), { baseUrl: target }).items;
    expect(entry?.type).toEqual(["h-entry"]);
    expect(entry?.properties.name).toEqual(["Mentioned here"]);
    expect(entry?.properties.url).toEqual([target]);
    expect(entry?.properties.published).toHaveLength(1);
    expect(JSON.stringify(entry?.properties.content)).toContain("A post to answer.");
    const author = entry?.properties.author?.[0] as { type: string[]; properties: object };
    expect(author.type).toEqual(["h-card"]);
    expect(author.properties).toMatchObject({ url: [`http://127.0.0.1:${PORT}/`] });
    const home = await request.get("/");
    const card = mf2(await home.text(), { baseUrl: home.url() }).items.find((item) =>
      item.type?.includes("h-card"),
    );
    expect(card?.properties).toMatchObject({ url: [`http://127.0.0.1:${PORT}/`] });
    expect(card?.properties.name).toHaveLength(1);
    expect(card?.properties.photo).toHaveLength(1);
    expect(card?.properties.note).toHaveLength(1);

    pages.set(
      "/reply",
      `<!doctype html><html><body><article class="h-entry">
        <a class="p-author h-card" href="${PEER}/">Loopback Lou</a>
        <p>In reply to <a class="u-in-reply-to" href="${target}">that post</a>:</p>
        <div class="e-content"><p>A loopback reply, with <em>feeling</em>.</p></div>
      </article></body></html>`,
    );
    pages.set("/nolink", `<!doctype html><p>Mentions ${target} only as text.</p>`);
    for (const source of [`${PEER}/reply`, `${PEER}/nolink`]) {
      const sent = await request.post(endpoint!, { form: { source, target } });
      expect(sent.status()).toBe(202);
    }
    const bad = await request.post(endpoint!, { form: { source: `${PEER}/reply` } });
    expect(bad.status()).toBe(400);

    // The queue verifies both: one is stored pending, the other dropped.
    await expect
      .poll(
        async () =>
          (
            await query<{ n: number }>(
              "select count(*)::int as n from jobs where kind = 'social.webmention-verify'",
            )
          )[0]!.n,
        { timeout: 45_000 },
      )
      .toBe(0);
    expect(
      await query("select source_url, kind, status from social_responses order by id"),
    ).toEqual([{ source_url: `${PEER}/reply`, kind: "reply", status: "pending" }]);

    await signInPage(page, "/admin/social");
    const pending = page.getByTestId("social-pending");
    await expect(pending).toHaveCount(1);
    await expect(pending).toContainText("Loopback Lou");
    await expect(pending).toContainText("A loopback reply");
    expect(await request.get(target).then((r) => r.text())).not.toContain("A loopback reply");

    await pending.getByRole("button", { name: SOCIAL_TEXT.approve }).click();
    await expect(page.getByRole("status")).toHaveText(SOCIAL_TEXT.done.approve);
    await expect(page.getByTestId("social-pending")).toHaveCount(0);

    // A visitor (no session) gets the page with the reply, from the cache the second time.
    const visitor = await browser.newContext();
    try {
      const anonymous = await visitor.newPage();
      await anonymous.goto(target);
      const responses = anonymous.getByTestId("responses");
      await expect(responses.getByRole("heading", { name: RESPONSES_TEXT.heading })).toBeVisible();
      await expect(responses.getByTestId("response")).toHaveCount(1);
      await expect(responses).toContainText("A loopback reply, with feeling.");
      await expect(responses.getByRole("link", { name: "Loopback Lou" })).toHaveAttribute(
        "href",
        `${PEER}/`,
      );
      const results = await new AxeBuilder({ page: anonymous })
        .include('[data-testid="responses"]')
        .analyze();
      expect(results.violations).toEqual([]);
      const again = await visitor.request.get(target);
      expect(again.headers()["x-page-cache"]).toBe("hit");
      expect(await again.text()).toContain("A loopback reply");
    } finally {
      await visitor.close();
    }
  });

  test("the owner's social page lists followers, blocks a domain and lifts the block, without JavaScript too", async ({
    browser,
    page: withScript,
  }) => {
    await query(
      `insert into social_followers (actor_url, inbox_url, handle, name, domain) values
        ('https://fedi.example/users/ana', 'https://fedi.example/inbox', '@ana@fedi.example', 'Ana', 'fedi.example'),
        ('https://other.example/users/bo', 'https://other.example/inbox', '@bo@other.example', 'Bo', 'other.example')`,
    );
    await withScript.setViewportSize({ width: 640, height: 900 });
    await signInPage(withScript, "/admin/social");
    await expect(withScript.getByTestId("social-follower")).toHaveCount(2);
    expect(
      await withScript.evaluate(() => document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(640);
    const axe = await new AxeBuilder({ page: withScript }).analyze();
    expect(axe.violations).toEqual([]);
    // Plain forms: every button works with JavaScript off (POST, then a redirect back).
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 640, height: 900 },
    });
    try {
      const page = await context.newPage();
      await signInPage(page, "/admin/social");
      const followers = page.getByTestId("social-follower");
      await expect(followers).toHaveCount(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        640,
      );
      await followers
        .filter({ hasText: "@ana@fedi.example" })
        .getByRole("button", { name: SOCIAL_TEXT.blockDomain })
        .click();
      await expect(page.getByRole("status")).toHaveText(SOCIAL_TEXT.done["block-follower-domain"]);
      await expect(followers).toHaveCount(1);
      const block = page.getByTestId("social-block");
      await expect(block).toContainText("fedi.example");

      await block.getByRole("button", { name: SOCIAL_TEXT.unblock }).click();
      await expect(page.getByRole("status")).toHaveText(SOCIAL_TEXT.done.unblock);
      await expect(page.getByTestId("social-block")).toHaveCount(0);

      await followers.getByRole("button", { name: SOCIAL_TEXT.remove }).click();
      await expect(page.getByText(SOCIAL_TEXT.noFollowers)).toBeVisible();
    } finally {
      await context.close();
    }
  });
});

import AxeBuilder from "@axe-core/playwright";
import Parser from "rss-parser";

import type { Page } from "@playwright/test";

import { expect, expectScrollY, hydrated, test } from "./fixtures";

type SeedPost = {
  title: string;
  description?: string | null;
  content: string;
  contentEn?: string | null;
  createdAt: string;
};

/** Twelve posts, one a day in January 2026: post 12 is the newest. */
const posts: SeedPost[] = Array.from({ length: 12 }, (_, i) => ({
  title: `Post ${i + 1}`,
  description: `Summary of post ${i + 1}.`,
  content: `<p>Body of post ${i + 1}.</p>`,
  createdAt: new Date(Date.UTC(2026, 0, i + 1, 12)).toISOString(),
}));
posts[11] = {
  ...posts[11]!,
  title: "Tips & <tricks> for SQL",
  description: "Kubernetes and SQL: a & b < c",
};
posts[10] = { ...posts[10]!, description: "" };
posts[9] = {
  ...posts[9]!,
  description: "A very long description. ".repeat(40),
  contentEn: "<p>The English version of post 10.</p>",
  content: "<h2>Versión en español</h2><p>Cuerpo del post 10.</p>",
};
posts[2] = { ...posts[2]!, title: "Running KUBERNETES at home" };

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const response = await request.post("/__test/posts", { data: { reset: true, posts } });
  expect(response.status()).toBe(200);
  expect((await response.json()).ids).toHaveLength(12);
});

const listTitles = (page: Page) => page.getByTestId("post-list").getByRole("heading", { level: 2 });

test("lists 5 posts a page, newest first, each with its description and date", async ({ page }) => {
  await page.goto("/blog");
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  await expect(page.getByRole("button", { name: "All Posts" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByLabel("Search posts")).toBeVisible();
  await expect(listTitles(page)).toHaveText([
    "Tips & <tricks> for SQL",
    "Post 11",
    "Post 10",
    "Post 9",
    "Post 8",
  ]);
  const items = page.getByTestId("post-list").getByRole("link");
  await expect(items.first()).toHaveAttribute("href", "/blog/tips-tricks-for-sql");
  await expect(items.first()).toContainText("January 12, 2026");
  await expect(items.nth(1)).toContainText("No description available");
  const clamp = await items
    .nth(2)
    .locator("p")
    .evaluate((p) => getComputedStyle(p).webkitLineClamp);
  expect(clamp).toBe("2");
  const height = await items
    .nth(2)
    .locator("p")
    .evaluate((p) => p.getBoundingClientRect().height);
  const lineHeight = await items
    .nth(2)
    .locator("p")
    .evaluate((p) => parseFloat(getComputedStyle(p).lineHeight));
  expect(height).toBeLessThanOrEqual(lineHeight * 2 + 1);
});

test("pages by button and by URL, with the ends disabled, and Back returns", async ({ page }) => {
  await page.goto("/blog");
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(pagination.getByRole("button", { name: "Previous page" })).toBeDisabled();
  await expect(pagination.getByRole("link", { name: "Page 1" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(pagination.getByRole("link", { name: /^Page \d+$/ })).toHaveCount(3);

  await pagination.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/\/blog\?page=2$/);
  await expect(listTitles(page)).toHaveText([
    "Post 7",
    "Post 6",
    "Post 5",
    "Post 4",
    "Running KUBERNETES at home",
  ]);

  await pagination.getByRole("link", { name: "Page 3" }).click();
  await expect(page).toHaveURL(/\/blog\?page=3$/);
  await expect(listTitles(page)).toHaveText(["Post 2", "Post 1"]);
  await expect(pagination.getByRole("button", { name: "Next page" })).toBeDisabled();
  await expect(pagination.getByRole("link", { name: "Previous page" })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/blog\?page=2$/);
  await expect(listTitles(page).first()).toHaveText("Post 7");
  await page.goBack();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(listTitles(page).first()).toHaveText("Tips & <tricks> for SQL");

  await page.goto("/blog?page=3");
  await expect(listTitles(page)).toHaveText(["Post 2", "Post 1"]);
});

test("changing the page scrolls smoothly to the top", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto("/blog");
  await page.getByRole("navigation", { name: "Pagination" }).scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  await page
    .getByRole("navigation", { name: "Pagination" })
    .getByRole("link", { name: "Page 2" })
    .click();
  await expect(page).toHaveURL(/page=2/);
  await expectScrollY(page, 0);
});

/**
 * The blog does not hydrate (it loads no framework), so client-side navigation happens when a
 * page that does hydrate leads into it: from the sign-in page's header, the list is then rendered
 * in the browser, and so are its later pages.
 */
async function blogFromHome(page: Page) {
  await page.goto("/login");
  await hydrated(page);
  await page.getByRole("banner").getByRole("link", { name: "Blog" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
}

test("shows Loading posts... while a page loads client-side", async ({ page }) => {
  await blogFromHome(page);
  await page.route(/\.data(\?|$)/, async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page
    .getByRole("navigation", { name: "Pagination" })
    .getByRole("link", { name: "Next page" })
    .click();
  await expect(page.getByText("Loading posts...")).toBeVisible();
  await expect(listTitles(page).first()).toHaveText("Post 7");
  await expect(page.getByText("Loading posts...")).toHaveCount(0);
});

test("shows Loading... while a post loads client-side", async ({ page }) => {
  await blogFromHome(page);
  await page.route(/\.data(\?|$)/, async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.getByRole("link", { name: /Post 9/ }).click();
  await expect(page.getByText("Loading...", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Post 9");
  await expect(page.getByText("Loading...", { exact: true })).toHaveCount(0);
});

test("searches case-insensitively from page 1, and All Posts clears the search", async ({
  page,
}) => {
  await page.goto("/blog?page=2");
  await page.getByLabel("Search posts").fill("kubernetes");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/blog\?q=kubernetes$/);
  // A match in the title ranks above one in the description, however new.
  await expect(listTitles(page)).toHaveText([
    "Running KUBERNETES at home",
    "Tips & <tricks> for SQL",
  ]);
  await expect(page.getByRole("button", { name: "All Posts" })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
  await expect(page.getByRole("navigation", { name: "Pagination" })).toHaveCount(0);

  await page.getByRole("button", { name: "All Posts" }).click();
  await expect(page).toHaveURL(/\/blog\??$/);
  await expect(page.getByLabel("Search posts")).toHaveValue("");
  await expect(listTitles(page)).toHaveCount(5);
  await expect(page.getByRole("button", { name: "All Posts" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
});

test("shows the empty text when nothing matches", async ({ page }) => {
  await page.goto("/blog?q=nothing-like-this");
  await expect(page.getByText("No posts found matching your criteria")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pagination" })).toHaveCount(0);
});

test.describe("bad page numbers", () => {
  test.use({ allowConsoleErrors: /status of 404/ });

  test("a page that is not a positive integer redirects to page 1; one past the last is a 404", async ({
    page,
    request,
  }) => {
    for (const bad of ["0", "-1", "abc", "1.5", "01", ""]) {
      const response = await request.get(`/blog?page=${bad}&q=post`, { maxRedirects: 0 });
      expect(response.status(), bad).toBe(302);
      expect(response.headers()["location"], bad).toBe("/blog?q=post");
    }
    await page.goto("/blog?page=abc");
    await expect(page).toHaveURL(/\/blog$/);
    await expect(listTitles(page)).toHaveCount(5);

    const past = await page.goto("/blog?page=4");
    expect(past!.status()).toBe(404);
    await expect(page.getByText("No posts found matching your criteria")).toBeVisible();
  });
});

test("the reader shows the post; Back to Blog returns to the list", async ({ page }) => {
  await page.goto("/blog?page=2");
  await page.getByRole("link", { name: /Post 6/ }).click();
  await expect(page).toHaveURL(/\/blog\/post-6$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Post 6");
  await expect(page.getByText("January 6, 2026")).toBeVisible();
  await expect(page.locator("article hr")).toHaveCount(1);
  await expect(page.getByTestId("post-content")).toHaveText("Body of post 6.");
  await expect(page.getByText("English", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("switch")).toHaveCount(0);
  await page.getByRole("link", { name: "Back to Blog" }).click();
  await expect(page).toHaveURL(/\/blog$/);
});

test("the English toggle switches the body to the English version", async ({ page }) => {
  await page.goto("/blog");
  await page.getByRole("link", { name: /Post 10/ }).click();
  await expect(page.getByText("English", { exact: true })).toBeVisible();
  const toggle = page.getByRole("switch", { name: "Read in English" });
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(page.getByTestId("post-content")).toContainText("Cuerpo del post 10.");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("post-content")).toHaveText("The English version of post 10.");
  await toggle.click();
  await expect(page.getByTestId("post-content")).toContainText("Cuerpo del post 10.");
});

test.describe("missing posts", () => {
  test.use({ allowConsoleErrors: /status of 404/ });

  test("a missing or non-numeric id answers 404 with Post not found", async ({ page }) => {
    for (const path of ["/blog/999999", "/blog/abc", "/blog/1e3", "/blog/99999999999"]) {
      const response = await page.goto(path);
      expect(response!.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: "Post not found" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to Blog" })).toHaveAttribute(
        "href",
        "/blog",
      );
    }
  });
});

test("every page has its own title, description and canonical URL; posts carry share tags", async ({
  page,
  baseURL,
}) => {
  await page.goto("/blog?page=2");
  await expect(page).toHaveTitle("Blog · Page 2 · Alex Byrne");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    "href",
    `${baseURL}/blog?page=2`,
  );
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    /Posts by Alex Byrne/,
  );
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    "href",
    "/rss.xml",
  );

  await page.getByRole("link", { name: /Post 6/ }).click();
  await expect(page).toHaveTitle("Post 6 · Alex Byrne");
  const url = page.url();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", url);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    "Summary of post 6.",
  );
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
    "content",
    "Post 6 · Alex Byrne",
  );
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", url);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary");
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(ld).toMatchObject({
    "@type": "BlogPosting",
    headline: "Post 6",
    url,
    datePublished: "2026-01-06T12:00:00.000Z",
    author: { "@type": "Person", name: "Alex Byrne" },
  });

  // A title with markup characters stays text in the head and in JSON-LD.
  await page.goto("/blog");
  await page.getByRole("link", { name: /Tips & <tricks>/ }).click();
  await expect(page).toHaveTitle("Tips & <tricks> for SQL · Alex Byrne");
  const tricky = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent())!,
  );
  expect(tricky.headline).toBe("Tips & <tricks> for SQL");
});

test("the RSS feed parses, escapes every text and carries the sanitized content", async ({
  request,
  baseURL,
}) => {
  const response = await request.get("/rss.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
  const xml = await response.text();
  const feed = await new Parser({ customFields: { item: ["content:encoded"] } }).parseString(xml);
  expect(feed.title).toBe("Alex Byrne · Blog");
  expect(feed.link).toBe(`${baseURL}/blog`);
  expect(feed.items).toHaveLength(12);
  expect(feed.items[0]!.title).toBe("Tips & <tricks> for SQL");
  expect(feed.items[0]!.link).toBe(`${baseURL}/blog/tips-tricks-for-sql`);
  expect(feed.items[0]!.contentSnippet).toBe("Kubernetes and SQL: a & b < c");
  expect(new Date(feed.items[0]!.pubDate!).toISOString()).toBe("2026-01-12T12:00:00.000Z");
  expect(feed.items[2]!["content:encoded"]).toBe(
    "<h2>Versión en español</h2><p>Cuerpo del post 10.</p>",
  );
});

test("the sitemap lists home, blog, the tags and every post with lastmod; robots.txt names it", async ({
  request,
  baseURL,
}) => {
  const xml = await (await request.get("/sitemap.xml")).text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect(locs).toHaveLength(15);
  expect(locs.slice(0, 3)).toEqual([`${baseURL}/`, `${baseURL}/blog`, `${baseURL}/blog/tags`]);
  expect(locs[3]).toBe(`${baseURL}/blog/tips-tricks-for-sql`);
  expect(locs.slice(3).every((loc) => /\/blog\/[a-z0-9-]+$/.test(loc!))).toBe(true);
  expect([...xml.matchAll(/<lastmod>/g)]).toHaveLength(12);

  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain("Allow: /\n");
  for (const path of ["/blog/new", "/blog/*/edit", "/login", "/admin"])
    expect(robots).toContain(`Disallow: ${path}\n`);
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

for (const scheme of ["light", "dark"] as const) {
  test(`axe finds no violation on /blog and a post (${scheme})`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ colorScheme: scheme, baseURL });
    const page = await context.newPage();
    await page.goto("/blog");
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    await page.getByRole("link", { name: /Post 10/ }).click();
    await expect(page.getByRole("switch")).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    await context.close();
  });
}

import type { Page } from "@playwright/test";

import { expect, expectScrollY, hydrated, test } from "./fixtures";
import { signInRequest } from "./owner";

/**
 * Content pages (the blog, posts, tags, error pages) load no framework: no script file at all,
 * only the inline theme script and the small site script, which gives the server's markup its
 * behaviour: the theme switch, the phone menu, back to top, copy buttons, heading links and the
 * English switch, keyboard included. A page that hydrates (sign-in) still navigates into the blog
 * as a single-page app, and fetches its framework only once its first frame is painted.
 */
test.describe.configure({ mode: "serial" });

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
let slug = "";

test.beforeAll(async ({ request }) => {
  await request.post("/__test/posts", { data: { reset: true, posts: [] } });
  await signInRequest(request);
  const created = await request.post("/api/posts", {
    data: {
      title: "A long read with code",
      description: "Everything a post can hold.",
      content:
        `<h2>Setup</h2><p>${words(300)}</p><pre><code class="language-ts">const answer = 42;</code></pre>` +
        `<h2>Details</h2><p>${words(300)}</p><h3>More</h3><p>${words(300)}</p>`,
      tags: ["typescript"],
    },
  });
  expect(created.status()).toBe(201);
  slug = ((await created.json()) as { slug: string }).slug;
  // An English version, as the original's column holds it (the editor never writes it).
  const stored = await request.post("/__test/posts", {
    data: {
      posts: [
        {
          title: "Bilingüe",
          content: "<h2>Hola</h2><p>Cuerpo en español.</p>",
          contentEn: "<h2>Hello</h2><p>The English body.</p>",
        },
      ],
    },
  });
  expect(stored.status()).toBe(200);
});

/** Every script the page loads or runs: files requested, and inline ones by what they are. */
async function scriptsOf(page: Page, path: string) {
  const files: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") files.push(request.url());
  });
  const response = await page.goto(path);
  const inline = await page.evaluate(() =>
    [...document.scripts]
      .filter((s) => s.type !== "application/ld+json")
      .map((s) =>
        s.src
          ? `file ${s.src}`
          : s.text.includes("data-theme-toggle")
            ? "site script"
            : s.text.includes("localStorage.getItem") && s.text.length < 400
              ? "theme"
              : `other: ${s.text.slice(0, 60)}`,
      ),
  );
  const framework = await page.evaluate(
    () => "__reactRouterContext" in window || "__reactRouterManifest" in window,
  );
  return { status: response?.status(), files, inline, framework };
}

for (const [path, status] of [
  ["/blog", 200],
  ["/blog?q=word10", 200],
  ["/blog/tags", 200],
  ["/blog/tags/typescript", 200],
  ["/blog/no-such-post", 404],
  ["/no/such/page", 404],
] as const) {
  test.describe(`${path}`, () => {
    test.use({ allowConsoleErrors: status === 404 ? /status of 404/ : null });
    test("runs no script but the theme script and the site script", async ({ page }) => {
      const found = await scriptsOf(page, path);
      expect(found.status).toBe(status);
      expect(found.files).toEqual([]);
      expect(found.inline).toEqual(["theme", "site script"]);
      expect(found.framework).toBe(false);
    });
  });
}

test("a post: no framework; copy, heading links and back to top work by keyboard", async ({
  page,
  context,
}) => {
  const found = await scriptsOf(page, `/blog/${slug}`);
  expect(found).toMatchObject({ status: 200, files: [], inline: ["theme", "site script"] });
  expect(found.framework).toBe(false);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);

  // Copy code, by keyboard: the exact text, announced.
  const copy = page.getByTestId("post-content").locator("button[data-copy-code]");
  await expect(copy).toHaveAccessibleName("Copy code");
  await copy.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("const answer = 42;");
  await expect(copy).toHaveText("Copied");
  await expect(copy).toHaveText("Copy code", { timeout: 5_000 });

  // A heading's link moves to it and copies its full address.
  await page.getByRole("link", { name: "Copy the link to “Details”" }).click();
  await expect(page).toHaveURL(/#details$/);
  await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${new URL(page.url()).origin}/blog/${slug}#details`,
  );

  // Back to top: hidden near the top, shown past 300 px, and back to the top by keyboard.
  await page.evaluate(() => window.scrollTo(0, 0));
  const top = page.getByRole("button", { name: "Back to top" });
  await expect(top).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 1500));
  await expect(top).toBeVisible();
  await top.focus();
  await page.keyboard.press("Enter");
  await expectScrollY(page, 0);
  await expect(top).toHaveCount(0);
});

test("the theme switch works and is remembered, by keyboard too", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, colorScheme: "light" });
  const page = await context.newPage();
  await page.goto("/blog");
  const toggle = page.getByRole("button", { name: "Dark theme" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.focus();
  await page.keyboard.press("Space");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  await page.goto(`/blog/${slug}`);
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  // Until a choice is made the page follows the system, live.
  const fresh = await browser.newContext({ baseURL, colorScheme: "light" });
  const other = await fresh.newPage();
  await other.goto("/blog/tags");
  await other.emulateMedia({ colorScheme: "dark" });
  await expect(other.getByRole("button", { name: "Dark theme" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await fresh.close();
  await context.close();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the menu opens and closes by keyboard, and its sections lead home", async ({ page }) => {
    await page.goto("/blog");
    const menu = page.getByRole("banner").getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    const sections = page.getByRole("banner").getByRole("list", { name: "Sections" }).last();
    await expect(sections).toBeHidden();
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(sections).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(sections).toBeHidden();
    await menu.click();
    await sections.getByRole("button", { name: "Skills" }).click();
    await expect(page).toHaveURL(/\/#skills$/);
  });
});

test("the English switch shows the other version's body, in its language, by keyboard too", async ({
  page,
}) => {
  await page.goto("/blog/bilingue");
  const toggle = page.getByRole("switch", { name: "Read in English" });
  const body = page.getByTestId("post-content");
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(body).toContainText("Cuerpo en español.");
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(body).toHaveText(/The English body\./);
  await expect(body).toHaveAttribute("lang", "en");
  await toggle.click();
  await expect(body).toContainText("Cuerpo en español.");
  await expect(body).not.toHaveAttribute("lang", "en");
});

test("a page that hydrates still navigates into the blog without a document load", async ({
  page,
}) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute(
    "aria-pressed",
    /true|false/,
  );
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await page.getByRole("banner").getByRole("link", { name: "Blog" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  await page
    .getByTestId("post-list")
    .getByRole("link", { name: /A long read with code/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
  // Rendered by React in the browser: its copy button works the same.
  await expect(page.getByRole("button", { name: "Copy code" })).toBeVisible();
  expect(documents).toEqual([]);
});

for (const path of ["/login"]) {
  test(`${path} paints first, then fetches its scripts and hydrates`, async ({ page }) => {
    const response = await page.goto(path);
    const html = await response!.text();
    // Nothing in the document makes the browser fetch a script before it paints.
    expect(html).not.toMatch(/rel="modulepreload"/);
    expect(html).not.toMatch(/<script[^>]*\bsrc=/);
    expect(html).not.toMatch(/^import /m);
    await hydrated(page);
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
        .map((entry) => entry.startTime),
      preloads: [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
        (link) => ({ href: new URL(link.href).pathname, nonce: link.nonce !== "" }),
      ),
      modules: Object.keys(
        (window as { __reactRouterRouteModules?: object }).__reactRouterRouteModules ?? {},
      ),
    }));
    expect(timing.paint).toBeGreaterThan(0);
    expect(timing.scripts.length).toBeGreaterThan(5);
    for (const start of timing.scripts) expect(start).toBeGreaterThan(timing.paint);
    // The same chunks `<Scripts>` would preload, added at once with the page's nonce.
    expect(timing.preloads.length).toBe(timing.scripts.length);
    for (const preload of timing.preloads) {
      expect(preload.href).toMatch(/^\/assets\/.+\.js$/);
      expect(preload.nonce).toBe(true);
    }
    expect(timing.modules).toEqual(["root", "routes/login"]);
  });
}

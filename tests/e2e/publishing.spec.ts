import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Browser, Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { nextAlert, signInPage, signInRequest, storedPosts } from "./owner";

/**
 * Publishing as the owner does it in the editor and as visitors see it: drafts, publishing and
 * unpublishing, readable URLs and their redirects, tags with their pages and feeds, scheduling
 * in the owner's time zone, and full-text search.
 */
test.describe.configure({ mode: "serial" });

const editorArea = (page: Page) => page.getByRole("textbox", { name: "Content *" });
const FEEDS = ["/rss.xml", "/atom.xml", "/feed.json", "/sitemap.xml"];

/** What an anonymous visitor gets for a path (the request fixture has no session). */
async function visitor(request: APIRequestContext, path: string) {
  const response = await request.get(path, { maxRedirects: 0 });
  return { status: response.status(), text: await response.text(), headers: response.headers() };
}

async function anonymousPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

test.beforeAll(async ({ request }) => {
  await request.post("/__test/posts", { data: { reset: true, posts: [] } });
});

let postId = 0;

test("a draft is the owner's alone: no page, list, tag, search, feed or sitemap shows it", async ({
  page,
  request,
}) => {
  await signInPage(page, "/blog/new");
  await page.getByLabel("Title *").fill("Migración rápida");
  await expect(page.getByLabel("URL", { exact: true })).toHaveAttribute(
    "placeholder",
    "migracion-rapida",
  );
  await page.getByLabel("Description").fill("De MySQL a PostgreSQL");
  await page.getByLabel("Tags").fill("PostgreSQL, Node.js");
  await expect(page.getByText("Saved as: #postgresql #node-js")).toBeVisible();
  await editorArea(page).click();
  await page.keyboard.type("Pasos para migrar sin parar el servicio.");
  await page.getByRole("radio", { name: "Draft" }).check();
  await expect(page.getByText("Only you can see a draft.")).toBeVisible();
  const alert = nextAlert(page);
  await page.getByRole("button", { name: "Save Post" }).click();
  expect(await alert).toBe("Post guardado exitosamente!");

  // The owner's list holds it, marked Draft.
  await page.waitForURL(/\/admin\/posts$/);
  const row = page.getByTestId("owner-post-list").getByRole("listitem").first();
  await expect(row).toContainText("Draft");
  await expect(row).toContainText("Migración rápida");
  postId = (await storedPosts(request)).find((p) => p.title === "Migración rápida")!.id;

  // Visitors find it nowhere.
  expect((await visitor(request, "/blog/migracion-rapida")).status).toBe(404);
  expect((await visitor(request, `/blog/${postId}`)).status).toBe(404);
  for (const path of ["/blog", "/blog?q=servicio", "/blog?q=migracion", "/blog/tags", ...FEEDS]) {
    const { text } = await visitor(request, path);
    expect(text, path).not.toContain("Migración rápida");
    expect(text, path).not.toContain("migracion-rapida");
    expect(text, path).not.toContain("postgresql");
  }
  for (const path of [
    "/blog/tags/postgresql",
    "/blog/tags/postgresql/rss.xml",
    "/blog/tags/postgresql/feed.json",
  ]) {
    expect((await visitor(request, path)).status, path).toBe(404);
  }

  // The owner reads it at its URL, told who can see it; search engines are told to keep away.
  await page.getByRole("link", { name: "Migración rápida", exact: true }).click();
  await expect(page).toHaveURL(/\/blog\/migracion-rapida$/);
  await expect(page.getByRole("note")).toHaveText("Draft: only you can see this post.");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
});

test("Publish makes it public everywhere; its tags lead to their pages, counts and feeds", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInPage(page, "/admin/posts");
  await page.getByRole("link", { name: "Edit Migración rápida" }).click();
  await expect(page.getByLabel("URL", { exact: true })).toHaveValue("migracion-rapida");
  await expect(page.getByLabel("Tags")).toHaveValue("postgresql, node-js");
  await expect(page.getByRole("radio", { name: "Draft" })).toBeChecked();
  await page.getByRole("radio", { name: "Publish", exact: true }).check();
  const alert = nextAlert(page);
  await page.getByRole("button", { name: "Update Post" }).click();
  expect(await alert).toBe("Post actualizado exitosamente!");
  await page.waitForURL(/\/blog\/migracion-rapida$/);

  const reader = await anonymousPage(browser, baseURL!);
  await reader.goto("/blog");
  const card = reader.getByTestId("post-list").getByRole("listitem").first();
  await expect(card.getByRole("heading")).toHaveText("Migración rápida");
  await expect(card.getByRole("link", { name: "Migración rápida" })).toHaveAttribute(
    "href",
    "/blog/migracion-rapida",
  );
  await card.getByRole("link", { name: "#postgresql" }).click();
  await expect(reader).toHaveURL(/\/blog\/tags\/postgresql$/);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText("Posts tagged #postgresql");
  await expect(reader.getByText("1 post", { exact: true })).toBeVisible();
  await expect(reader.getByTestId("post-list").getByRole("heading")).toHaveText([
    "Migración rápida",
  ]);
  // The tag's feeds are advertised beside the blog's, and answer.
  const alternates = await reader
    .locator('head link[rel="alternate"]')
    .evaluateAll((links) =>
      links.map((l) => `${l.getAttribute("type")} ${l.getAttribute("href")}`),
    );
  expect(alternates).toEqual(
    expect.arrayContaining([
      "application/rss+xml /rss.xml",
      "application/atom+xml /atom.xml",
      "application/feed+json /feed.json",
      "application/rss+xml /blog/tags/postgresql/rss.xml",
      "application/atom+xml /blog/tags/postgresql/atom.xml",
      "application/feed+json /blog/tags/postgresql/feed.json",
    ]),
  );
  for (const file of ["rss.xml", "atom.xml", "feed.json"]) {
    const response = await reader.request.get(`/blog/tags/node-js/${file}`);
    expect(response.status(), file).toBe(200);
    expect(await response.text(), file).toContain(`${baseURL}/blog/migracion-rapida`);
  }
  expect(
    (await (await reader.request.get("/blog/tags/node-js/feed.json")).json()).items,
  ).toHaveLength(1);

  await reader.getByRole("link", { name: "All tags" }).click();
  await expect(reader).toHaveURL(/\/blog\/tags$/);
  await expect(reader.getByTestId("tag-list").getByRole("link")).toHaveText([
    "#node-js 1 post",
    "#postgresql 1 post",
  ]);
  const axe = await new AxeBuilder({ page: reader }).analyze();
  expect(axe.violations).toEqual([]);

  for (const path of FEEDS) {
    expect(await (await reader.request.get(path)).text(), path).toContain("migracion-rapida");
  }
  await reader.context().close();
});

test("a changed URL and the original id answer 301 to the canonical URL, every old one for good", async ({
  page,
  request,
  baseURL,
}) => {
  await signInPage(page, `/blog/${postId}/edit`);
  for (const slug of ["fast-migration", "quick-migration"]) {
    await page.getByLabel("URL", { exact: true }).fill(slug);
    const alert = nextAlert(page);
    await page.getByRole("button", { name: "Update Post" }).click();
    expect(await alert).toBe("Post actualizado exitosamente!");
    await page.waitForURL(new RegExp(`/blog/${slug}$`));
    if (slug === "fast-migration") await page.getByRole("link", { name: "Edit" }).click();
  }
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    "href",
    `${baseURL}/blog/quick-migration`,
  );
  for (const old of [String(postId), "migracion-rapida", "fast-migration"]) {
    const moved = await visitor(request, `/blog/${old}`);
    expect(moved.status, old).toBe(301);
    expect(moved.headers["location"], old).toBe("/blog/quick-migration");
  }
  expect((await visitor(request, "/blog/quick-migration")).status).toBe(200);
  // A browser following an old link lands on the post.
  const reader = await anonymousPage(page.context().browser()!, baseURL!);
  await reader.goto("/blog/migracion-rapida");
  await expect(reader).toHaveURL(/\/blog\/quick-migration$/);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText("Migración rápida");
  await reader.context().close();

  // Another post cannot take an address this one had.
  const owner = page.request;
  const taken = await owner.post("/api/posts", {
    data: { title: "Another", content: "<p>x</p>", slug: "fast-migration" },
  });
  expect(taken.status()).toBe(409);
  expect((await taken.json()).error).toBe("Another post has or had that URL. Choose another.");
});

test("search finds a word only in the body with a marked snippet, accents either way, and no markup", async ({
  page,
  request,
}) => {
  await signInRequest(request);
  for (const post of [
    {
      title: "Caching notes",
      description: "Where a cache pays",
      content: "<p>Measured with <strong>perf</strong> and a <em>flamegraph</em>, then tuned.</p>",
    },
    {
      title: "Escaping",
      description: "",
      content: "<p>Write &lt;script&gt; tags as text.</p>",
    },
    {
      title: "Tom & Jerry <3 100% uptime",
      description: "",
      content: "<p>A year without an outage.</p>",
    },
  ]) {
    expect((await request.post("/api/posts", { data: post })).status()).toBe(201);
  }
  await page.goto("/blog");
  await page.getByLabel("Search posts").fill("flamegraph");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/blog\?q=flamegraph$/);
  const results = page.getByTestId("post-list").getByRole("listitem");
  await expect(results).toHaveCount(1);
  await expect(results.first().getByRole("heading")).toHaveText("Caching notes");
  await expect(results.first().locator("mark")).toHaveText(["flamegraph"]);
  await expect(results.first()).toContainText("Measured with perf and a flamegraph, then tuned");

  await page.goto("/blog?q=migracion+RAPIDA");
  await expect(page.getByTestId("post-list").getByRole("heading")).toHaveText(["Migración rápida"]);
  await expect(page.getByTestId("post-list").locator("h2 mark")).toHaveText([
    "Migración",
    "rápida",
  ]);
  await page.goto("/blog?q=%22sin+parar%22+migr*");
  await expect(page.getByTestId("post-list").getByRole("heading")).toHaveText(["Migración rápida"]);
  // A matching title is shown whole, short words at its start too, its matches marked.
  await page.goto("/blog?q=100%25+uptime");
  await expect(page.getByTestId("post-list").getByRole("heading")).toHaveText([
    "Tom & Jerry <3 100% uptime",
  ]);
  await expect(page.getByTestId("post-list").locator("h2 mark")).toHaveText(["100", "uptime"]);

  // Markup is not text: its tag names find nothing.
  for (const word of ["strong", "em", "<strong>"]) {
    await page.goto(`/blog?q=${encodeURIComponent(word)}`);
    await expect(page.getByText("No posts found matching your criteria"), word).toBeVisible();
  }
  // A search written as markup runs nothing, is echoed as typed, and finds the post whose
  // text says it.
  let dialogs = 0;
  page.on("dialog", async (dialog) => {
    dialogs++;
    await dialog.dismiss();
  });
  const typed = "<script>alert(1)</script>";
  await page.goto(`/blog?q=${encodeURIComponent(typed)}`);
  await expect(page.getByLabel("Search posts")).toHaveValue(typed);
  await expect(page).toHaveTitle(new RegExp(`^Search: ${typed.replace(/[()/]/g, "\\$&")}`));
  await page.goto(`/blog?q=${encodeURIComponent("<script>")}`);
  await expect(page.getByTestId("post-list").getByRole("heading")).toHaveText(["Escaping"]);
  await expect(page.getByTestId("post-list").locator("p").first()).toHaveText(
    "Write <script> tags as text",
  );
  expect(dialogs).toBe(0);
});

test.describe("scheduling", () => {
  test.use({ timezoneId: "Europe/Dublin" });

  test("Publish at reads the owner's time zone, and the post waits in the owner's list", async ({
    page,
    request,
  }) => {
    await signInPage(page, "/blog/new");
    await page.getByLabel("Title *").fill("Summer plans");
    await editorArea(page).click();
    await page.keyboard.type("Written in winter.");
    await page.getByRole("radio", { name: "Publish at" }).check();
    await expect(page.getByText("(your time zone, Europe/Dublin)")).toBeVisible();
    // 10:00 in Dublin in July is 09:00 UTC (Irish summer time).
    await page.getByRole("textbox", { name: "Publish at" }).fill("2030-07-01T10:00");
    const alert = nextAlert(page);
    await page.getByRole("button", { name: "Save Post" }).click();
    expect(await alert).toBe("Post guardado exitosamente!");
    await page.waitForURL(/\/admin\/posts$/);
    const row = page.getByTestId("owner-post-list").getByRole("listitem").filter({
      hasText: "Summer plans",
    });
    await expect(row).toContainText("Scheduled");
    await expect(row).toContainText("Goes public July 1, 2030 at 09:00 UTC");
    const stored = await (await request.get("/__test/posts")).json();
    const summer = (stored.posts as { title: string; publishedAt: string; status: string }[]).find(
      (p) => p.title === "Summer plans",
    )!;
    expect(summer).toMatchObject({ status: "scheduled", publishedAt: "2030-07-01T09:00:00.000Z" });
    expect((await visitor(request, "/blog/summer-plans")).status).toBe(404);
    // The editor shows the time back as it was typed.
    await row.getByRole("link", { name: "Edit Summer plans" }).click();
    await expect(page.getByRole("textbox", { name: "Publish at" })).toHaveValue("2030-07-01T10:00");
    await expect(page.getByRole("radio", { name: "Publish at" })).toBeChecked();
  });
});

test("Unpublish takes a post down, from every list and every address it had", async ({
  page,
  request,
}) => {
  await signInPage(page, `/blog/${postId}/edit`);
  await expect(page.getByRole("radio", { name: "Published" })).toBeChecked();
  await page.getByRole("radio", { name: "Unpublish" }).check();
  const alert = nextAlert(page);
  await page.getByRole("button", { name: "Update Post" }).click();
  expect(await alert).toBe("Post actualizado exitosamente!");
  await page.waitForURL(/\/admin\/posts$/);
  await expect(
    page
      .getByTestId("owner-post-list")
      .getByRole("listitem")
      .filter({ hasText: "Migración rápida" }),
  ).toContainText("Draft");
  for (const path of ["/blog/quick-migration", "/blog/migracion-rapida", `/blog/${postId}`]) {
    expect((await visitor(request, path)).status, path).toBe(404);
  }
  for (const path of ["/blog", "/blog/tags", ...FEEDS]) {
    expect((await visitor(request, path)).text, path).not.toContain("Migración rápida");
  }
});

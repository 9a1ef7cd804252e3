import { expect, test } from "./fixtures";
import { signInPage } from "./owner";
import { freshDatabase, serveOn } from "./processes";

/**
 * /admin/import in Chromium, on a server of its own (PostgreSQL): a real WordPress export
 * (tests/fixtures/imports/README.md) uploaded, its dry run read, `Import` confirmed; the job
 * imports it, the posts render, the old URLs answer 301, drafts stay hidden, and a second
 * upload of the same file has nothing to import. Then a dev.to article's JSON, the same way.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const PORT = Number(process.env.E2E_PORT_BASE ?? 3210) + 46;
const WXR = "tests/fixtures/imports/wordpress/theme-unit-test-trimmed.xml";
const DEVTO = "tests/fixtures/imports/devto/article-api-v1.json";

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test.describe("importing a WordPress export and a dev.to article", () => {
  test.skip(!TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: this test needs PostgreSQL");

  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let server: Awaited<ReturnType<typeof serveOn>>["server"];

  test.beforeAll(async () => {
    database = await freshDatabase("imports");
    ({ server } = await serveOn(PORT, database.url));
  });

  test.afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await database?.drop();
  });

  test("dry run, Import, the posts and their old URLs, then nothing new", async ({
    page,
    request,
  }) => {
    await signInPage(page, "/admin/import");
    await page.getByLabel("Export file").setInputFiles(WXR);
    await page.getByRole("button", { name: "Dry run" }).click();
    const plan = page.getByTestId("import-plan");
    await expect(plan).toContainText(
      "WordPress export: 7 posts to create (5 published, 1 draft, 1 scheduled)",
    );
    await expect(plan).toContainText("+ blocks-formatting: Block category: Formatting");
    // The dry run changed nothing.
    expect((await request.get("/blog/blocks-formatting")).status()).toBe(404);

    await page.getByRole("button", { name: "Import 7" }).click();
    await expect(page.getByTestId("import-progress")).toContainText(
      "Done: 7 created, 0 failed, 0 skipped.",
      { timeout: 60_000 },
    );
    // The export's one image is on the public internet: brought here or kept as a link, said so.
    await expect(page.getByTestId("import-progress")).toContainText(
      /Images: \d brought here, \d kept as links/,
    );

    await page.goto("/blog/blocks-formatting");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Block category: Formatting");
    await expect(page.locator("article pre.shiki").first()).toBeVisible();

    for (const old of ["/?p=1732", "/2018/11/02/block-category-formatting/"]) {
      const moved = await request.get(old, { maxRedirects: 0 });
      expect(moved.status(), old).toBe(301);
      expect(moved.headers()["location"]).toBe("/blog/blocks-formatting");
    }
    // The draft is not public, nor is its old URL.
    expect((await request.get("/blog/draft")).status()).toBe(404);
    expect((await request.get("/?p=1164", { maxRedirects: 0 })).status()).not.toBe(301);

    await page.goto("/admin/import");
    await page.getByLabel("Export file").setInputFiles(WXR);
    await page.getByRole("button", { name: "Dry run" }).click();
    await expect(page.getByTestId("import-plan")).toContainText("0 posts to create");
    await expect(page.getByTestId("import-plan")).toContainText("imported before");
    await expect(page.getByRole("button", { name: /^Import/ })).toHaveCount(0);
  });

  test("a dev.to article: dry run, Import, the post, its old dev.to path", async ({
    page,
    request,
  }) => {
    await signInPage(page, "/admin/import");
    await page.getByLabel("Export file").setInputFiles(DEVTO);
    await page.getByRole("button", { name: "Dry run" }).click();
    const plan = page.getByTestId("import-plan");
    // Its one image is the article's cover.
    await expect(plan).toContainText(
      "dev.to export: 1 post to create (1 published, 0 drafts, 0 scheduled), 1 image",
    );
    await expect(plan).toContainText("+ pale-kings-and-princes179: Pale Kings and Princes179");
    expect((await request.get("/blog/pale-kings-and-princes179")).status()).toBe(404);

    await page.getByRole("button", { name: "Import 1" }).click();
    await expect(page.getByTestId("import-progress")).toContainText(
      "Done: 1 created, 0 failed, 0 skipped.",
      { timeout: 60_000 },
    );

    await page.goto("/blog/pale-kings-and-princes179");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pale Kings and Princes179");
    await expect(page.locator("article")).toContainText("Etsy you probably haven't heard of them");
    await expect(page.locator("article")).toContainText("put a bird on it.");

    const moved = await request.get("/username391/pale-kings-and-princes179-381c", {
      maxRedirects: 0,
    });
    expect(moved.status()).toBe(301);
    expect(moved.headers()["location"]).toBe("/blog/pale-kings-and-princes179");
  });
});

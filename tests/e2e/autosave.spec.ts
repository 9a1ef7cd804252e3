// Never lose a word: autosave, the browser's copy while the server is down, pending changes of a
// published post, and edit conflicts between two windows. Each test starts servers of its own
// (tests/e2e/processes.ts), so it can kill one and start it again on the same data.
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { E2E_OWNER_PASSWORD } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { freshDatabase, startServer, waitForHealth } from "./processes";

const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3210) + 20;
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

test.describe.configure({ mode: "serial", timeout: 120_000 });
// Requests the server refused (409) or could not answer (while it was stopped) are logged by
// the browser; those are the point of these tests.
test.use({ allowConsoleErrors: /ERR_CONNECTION_REFUSED|status of 409|Failed to fetch/ });

type Server = { base: string; stop(signal?: NodeJS.Signals): Promise<void> };

async function serve(port: number, env: Record<string, string>): Promise<Server> {
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    SITE_URL: base,
    SEED_DEMO: "false",
    OWNER_PASSWORD: E2E_OWNER_PASSWORD,
    ...env,
  });
  await waitForHealth(base, server.child);
  return {
    base,
    stop: async (signal = "SIGTERM") => {
      server.child.kill(signal);
      await server.exited;
    },
  };
}

async function ownerPage(
  browser: Browser,
  base: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto("/login?redirectTo=%2Fadmin%2Fposts");
  await page.getByLabel("Password").fill(E2E_OWNER_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/admin/posts");
  return { context, page };
}

const editorArea = (page: Page) => page.getByRole("textbox", { name: "Content *" });
const status = (page: Page) => page.getByTestId("save-status");

/** Types at the end of the post's text. */
async function typeAtEnd(page: Page, text: string) {
  await editorArea(page).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

async function createPublished(page: Page, title: string, text: string) {
  const created = await page.request.post("/api/posts", {
    data: { title, description: "", content: `<p>${text}</p>`, publish: { mode: "now" } },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { id: number; slug: string; revision: number };
}

test.describe("autosave on an embedded database", () => {
  let dataDir: string;
  let server: Server;
  const port = PORT_BASE;
  test.beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "autosave-e2e-"));
    server = await serve(port, { DATA_DIR: dataDir, PAGE_CACHE_HEADER: "true" });
  });
  test.afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a new post is saved as a draft while typing: closing the browser without saving loses nothing", async ({
    browser,
  }) => {
    const one = await ownerPage(browser, server.base);
    await one.page.goto("/blog/new");
    // The editor mounts once the page has hydrated: what is typed before could be lost. This is
    // often the run's first editor, on a server just started while the others start beside it:
    // CI once waited more than the usual 5 s for it.
    await expect(editorArea(one.page)).toBeVisible({ timeout: 15_000 });
    await one.page.getByLabel("Title *").fill("Autosaved title");
    await typeAtEnd(one.page, "Every word typed here must survive a closed browser.");
    await expect(status(one.page)).toHaveText(/^Saved at \d\d:\d\d$/, { timeout: 10_000 });
    // The address is the new draft's edit page, and the editor never reloaded.
    await expect(one.page).toHaveURL(/\/blog\/\d+\/edit$/);
    const editUrl = new URL(one.page.url()).pathname;
    await typeAtEnd(one.page, " And these words too.");
    await expect(status(one.page)).toHaveText(/^Saved at/, { timeout: 10_000 });
    await expect(status(one.page)).toHaveAttribute("aria-live", "polite");
    await one.context.close();

    const two = await ownerPage(browser, server.base);
    await two.page.goto(editUrl);
    await expect(two.page.getByLabel("Title *")).toHaveValue("Autosaved title");
    await expect(editorArea(two.page)).toHaveText(
      "Every word typed here must survive a closed browser. And these words too.",
    );
    // A draft: visitors see nothing of it.
    expect(
      (await fetch(`${server.base}/blog`).then((r) => r.text())).includes("Autosaved title"),
    ).toBe(false);
    await two.context.close();
  });

  test("typing while the server is killed: the browser keeps it, offers it back, and saves it", async ({
    browser,
  }) => {
    const { context, page } = await ownerPage(browser, server.base);
    const post = await createPublished(page, "Crash test", "Before the crash.");
    await page.goto(`/blog/${post.id}/edit`);
    await expect(editorArea(page)).toHaveText("Before the crash.");

    await server.stop("SIGKILL");
    await typeAtEnd(page, " Typed while the server was dead.");
    await expect(status(page)).toHaveText("Offline: kept in this browser", { timeout: 10_000 });
    // The tab is closed before the server is back: only the browser's copy holds the words.
    await page.close();

    server = await serve(port, { DATA_DIR: dataDir, PAGE_CACHE_HEADER: "true" });
    const again = await context.newPage();
    await again.goto(`${server.base}/blog/${post.id}/edit`);
    const offer = again.getByRole("heading", {
      name: /^Restore unsaved changes from \d\d:\d\d\?$/,
    });
    await expect(offer).toBeVisible();
    await expect(offer).toBeFocused();
    await again.getByText("What differs").click();
    await expect(again.getByTestId("text-diff").locator("ins")).toContainText(
      "Typed while the server was dead.",
    );
    expect((await new AxeBuilder({ page: again }).analyze()).violations).toEqual([]);
    await again.keyboard.press("Tab");
    await again.getByRole("button", { name: "Restore", exact: true }).press("Enter");
    await expect(editorArea(again)).toHaveText(
      "Before the crash. Typed while the server was dead.",
    );
    await expect(status(again)).toHaveText(/^Saved at/, { timeout: 10_000 });

    // Saved on the server: another browser opens it, as unpublished changes of the post.
    const other = await ownerPage(browser, server.base);
    await other.page.goto(`/blog/${post.id}/edit`);
    await expect(editorArea(other.page)).toHaveText(
      "Before the crash. Typed while the server was dead.",
    );
    await expect(other.page.getByText("Unpublished changes.")).toBeVisible();
    await other.context.close();
    await context.close();
  });

  test("the server stopped and started while the page stays open: the retry saves it", async ({
    browser,
  }) => {
    const { context, page } = await ownerPage(browser, server.base);
    await page.goto("/blog/new");
    await expect(editorArea(page)).toBeVisible();
    await page.getByLabel("Title *").fill("Retried");
    await typeAtEnd(page, "First words.");
    await expect(status(page)).toHaveText(/^Saved at/, { timeout: 10_000 });
    const editUrl = new URL(page.url()).pathname;
    await server.stop("SIGKILL");
    await typeAtEnd(page, " Second words.");
    await expect(status(page)).toHaveText("Offline: kept in this browser", { timeout: 10_000 });
    server = await serve(port, { DATA_DIR: dataDir, PAGE_CACHE_HEADER: "true" });
    await expect(status(page)).toHaveText(/^Saved at/, { timeout: 40_000 });
    const fresh = await ownerPage(browser, server.base);
    await fresh.page.goto(editUrl);
    // The editor's code comes from a server that has just started, while other tests load the
    // machine: it may take longer than the default wait to appear.
    await expect(editorArea(fresh.page)).toHaveText("First words. Second words.", {
      timeout: 20_000,
    });
    await fresh.context.close();
    await context.close();
  });

  test("an autosave of a published post changes nothing visitors see until Update Post; Discard drops it", async ({
    browser,
  }) => {
    const { context, page } = await ownerPage(browser, server.base);
    const post = await createPublished(page, "Live post", "What visitors read.");
    const visitor = () => fetch(`${server.base}/blog/${post.slug}`).then((r) => r.text());
    expect(await visitor()).toContain("What visitors read.");
    await page.goto(`/blog/${post.id}/edit`);
    // Opening the editor saves nothing.
    await page.waitForTimeout(4_000);
    await expect(status(page)).toHaveText("");
    await expect(page.getByText("Unpublished changes.")).toHaveCount(0);
    await typeAtEnd(page, " A sentence not ready yet.");
    await expect(status(page)).toHaveText(/^Saved at/, { timeout: 10_000 });
    await expect(page.getByText("Unpublished changes.")).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    for (const path of [`/blog/${post.slug}`, "/blog", "/rss.xml", "/feed.json"]) {
      expect(await fetch(`${server.base}${path}`).then((r) => r.text()), path).not.toContain(
        "not ready yet",
      );
    }
    // Reopened, the editor has the changes and says they are unpublished.
    await page.reload();
    await expect(editorArea(page)).toHaveText("What visitors read. A sentence not ready yet.");
    await page.getByRole("button", { name: "Discard changes" }).press("Enter");
    await expect(editorArea(page)).toHaveText("What visitors read.");
    await expect(page.getByText("Unpublished changes.")).toHaveCount(0);

    await typeAtEnd(page, " Now it is ready.");
    await expect(status(page)).toHaveText(/^Saved at/, { timeout: 10_000 });
    expect(await visitor()).not.toContain("Now it is ready.");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Update Post" }).click();
    await page.waitForURL(`**/blog/${post.slug}`);
    expect(await visitor()).toContain("What visitors read. Now it is ready.");
    await context.close();
  });

  test("two windows edit one post: the later save gets the conflict choices, and each works", async ({
    browser,
  }) => {
    const a = await ownerPage(browser, server.base);
    const b = await ownerPage(browser, server.base);
    const post = await createPublished(a.page, "Contested", "Shared start.");
    await a.page.goto(`/blog/${post.id}/edit`);
    await b.page.goto(`/blog/${post.id}/edit`);

    // A saves first; B, who began from the same revision, is refused and told where and when.
    await typeAtEnd(a.page, " From A.");
    await expect(status(a.page)).toHaveText(/^Saved at/, { timeout: 10_000 });
    await typeAtEnd(b.page, " From B.");
    const conflict = b.page.getByRole("heading", {
      name: "This post changed since you began editing",
    });
    await expect(conflict).toBeVisible({ timeout: 10_000 });
    await expect(
      b.page.getByText(
        /It was saved at \d\d:\d\d on another device \(Chrome on Linux\)\. Nothing was overwritten\./,
      ),
    ).toBeVisible();
    expect((await new AxeBuilder({ page: b.page }).analyze()).violations).toEqual([]);

    // Show differences: theirs against mine, word by word.
    // By keyboard: the heading has the focus, the choices follow it.
    await b.page.keyboard.press("Tab");
    await expect(b.page.getByRole("button", { name: "Show differences" })).toBeFocused();
    await b.page.keyboard.press("Enter");
    const diff = b.page.getByTestId("text-diff");
    // "From" is in both: only the words that differ are marked.
    await expect(diff.locator("del")).toHaveText("removed: A.");
    await expect(diff.locator("ins")).toHaveText("added: B.");

    // Keep mine: B's text goes on top; A, reopening, sees it.
    await b.page.keyboard.press("Tab");
    await expect(b.page.getByRole("button", { name: "Keep mine" })).toBeFocused();
    await b.page.keyboard.press("Enter");
    await expect(status(b.page)).toHaveText(/^Saved at/, { timeout: 10_000 });
    await a.page.reload();
    await expect(editorArea(a.page)).toHaveText("Shared start. From B.");

    // Take theirs: A saves again; B is refused and takes A's text.
    await typeAtEnd(a.page, " A again.");
    await expect(status(a.page)).toHaveText(/^Saved at/, { timeout: 10_000 });
    await typeAtEnd(b.page, " B again.");
    await expect(conflict).toBeVisible({ timeout: 10_000 });
    await b.page.getByRole("button", { name: "Take theirs" }).press("Enter");
    await expect(editorArea(b.page)).toHaveText("Shared start. From B. A again.");
    await expect(conflict).toHaveCount(0);

    // Update Post from a window that fell behind is refused too, and nothing is overwritten.
    await typeAtEnd(a.page, " A third.");
    await expect(status(a.page)).toHaveText(/^Saved at/, { timeout: 10_000 });
    await b.page.getByRole("button", { name: "Update Post" }).click();
    await expect(conflict).toBeVisible();
    const visitor = await fetch(`${server.base}/blog/${post.slug}`).then((r) => r.text());
    expect(visitor).toContain("Shared start.");
    expect(visitor).not.toContain("A third.");
    await a.context.close();
    await b.context.close();
  });
});

test.describe("edit conflicts across two instances on PostgreSQL", () => {
  test.skip(!TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: this test needs PostgreSQL");
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  test.beforeAll(async () => {
    database = await freshDatabase("autosave");
  });
  test.afterAll(() => database.drop());

  test("a window on each instance: the second save is refused with the choices, Keep mine wins", async ({
    browser,
  }) => {
    const one = await serve(PORT_BASE + 1, { DATABASE_URL: database.url });
    const two = await serve(PORT_BASE + 2, { DATABASE_URL: database.url });
    try {
      const a = await ownerPage(browser, one.base);
      const b = await ownerPage(browser, two.base);
      const post = await createPublished(a.page, "Two instances", "Shared.");
      await a.page.goto(`/blog/${post.id}/edit`);
      await b.page.goto(`/blog/${post.id}/edit`);
      await typeAtEnd(a.page, " One.");
      await expect(status(a.page)).toHaveText(/^Saved at/, { timeout: 10_000 });
      await typeAtEnd(b.page, " Two.");
      await expect(
        b.page.getByRole("heading", { name: "This post changed since you began editing" }),
      ).toBeVisible({ timeout: 10_000 });
      await b.page.getByRole("button", { name: "Keep mine" }).click();
      await expect(status(b.page)).toHaveText(/^Saved at/, { timeout: 10_000 });
      await a.page.reload();
      await expect(editorArea(a.page)).toHaveText("Shared. Two.");
      await a.context.close();
      await b.context.close();
    } finally {
      await one.stop();
      await two.stop();
    }
  });
});

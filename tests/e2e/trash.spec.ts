import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Locator, Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { nextAlert, signInPage, signInRequest, storedPosts } from "./owner";

// Its own server (playwright.config.ts): the tests replace every post.
test.describe.configure({ mode: "serial" });

/** Stores published posts by title (their slugs come from the titles) and answers their ids. */
async function seed(request: APIRequestContext, titles: string[]): Promise<number[]> {
  const response = await request.post("/__test/posts", {
    data: { reset: true, posts: titles.map((title) => ({ title, content: `<p>${title}.</p>` })) },
  });
  return ((await response.json()) as { ids: number[] }).ids;
}

/** Presses Tab until `target` has the focus, as a keyboard user reaches it. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("never reached by Tab");
}

/** What a visitor (no session) gets at a path: its status, its body, how the page cache answered. */
async function visitor(request: APIRequestContext, path: string) {
  const response = await request.get(path, { maxRedirects: 0 });
  return {
    status: response.status(),
    body: await response.text(),
    cache: response.headers()["x-page-cache"],
  };
}

test.describe("the trash", () => {
  test("Delete in the editor by keyboard: gone for visitors at once; the Trash view restores it at the same URL", async ({
    page,
    playwright,
    baseURL,
  }) => {
    const anonymous = await playwright.request.newContext({ baseURL });
    const [id] = await seed(anonymous, ["Trash me", "Stay here"]);
    // Visitors read it, the second time from the page cache.
    await visitor(anonymous, "/blog/trash-me");
    expect(await visitor(anonymous, "/blog/trash-me")).toMatchObject({ status: 200, cache: "hit" });
    expect((await visitor(anonymous, "/rss.xml")).body).toContain("Trash me");

    await signInPage(page, `/blog/${id}/edit`);
    await tabTo(page, page.getByRole("button", { name: "Delete post" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Delete this post?" });
    await expect(dialog).toContainText(
      "“Trash me” goes to the trash for 30 days, where you can restore it.",
    );
    await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Delete" })).toBeFocused();
    await page.keyboard.press("Enter");

    await expect(page).toHaveURL(new RegExp(`/admin/posts\\?trashed=${id}$`));
    const notice = page.getByTestId("trash-notice");
    await expect(notice).toContainText("“Trash me” is in the trash for 30 days.");
    await expect(notice).toBeFocused();
    await expect(page.getByRole("link", { name: "Trash (1)" })).toBeVisible();
    await expect(page.getByTestId("owner-post-list")).not.toContainText("Trash me");

    // Visitors: gone at once, from every list, the cached post page included.
    expect(await visitor(anonymous, "/blog/trash-me")).toMatchObject({ status: 410 });
    expect((await visitor(anonymous, "/blog/trash-me")).body).toContain("Post not found");
    for (const path of ["/blog", "/rss.xml", "/sitemap.xml", "/blog?q=trash"]) {
      const list = await visitor(anonymous, path);
      expect(list.status, path).toBe(200);
      expect(list.body, path).not.toContain("trash-me");
    }

    // The Trash view, by keyboard from the notice: it lists the post with what it was.
    await tabTo(page, notice.getByRole("link", { name: "Open the trash" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/admin\/posts\/trash$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Trash");
    const row = page
      .getByTestId("trash-list")
      .getByRole("listitem")
      .filter({ hasText: "Trash me" });
    await expect(row).toContainText("Was Published");
    await expect(row).toContainText("deleted forever in 30 days");
    await tabTo(page, row.getByRole("button", { name: "Restore Trash me" }));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("trash-notice")).toContainText("“Trash me” is restored.");
    await expect(page.getByText("The trash is empty.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Trash (0)" })).toBeVisible();

    await page.getByRole("link", { name: "View post" }).click();
    await expect(page).toHaveURL(/\/blog\/trash-me$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Trash me");
    expect(await visitor(anonymous, "/blog/trash-me")).toMatchObject({ status: 200 });
    expect((await visitor(anonymous, "/rss.xml")).body).toContain("Trash me");
    await anonymous.dispose();
  });

  test("Undo on the owner's list gives the post back in place", async ({ page, request }) => {
    const [id] = await seed(request, ["Undo me"]);
    await signInPage(page, `/blog/${id}/edit`);
    await page.getByRole("button", { name: "Delete post" }).click();
    await page
      .getByRole("dialog", { name: "Delete this post?" })
      .getByRole("button", { name: "Delete" })
      .click();
    await expect(page).toHaveURL(/\/admin\/posts\?trashed=/);
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByTestId("trash-notice")).toContainText("“Undo me” is restored.");
    await expect(page).toHaveURL(/\/admin\/posts\?trashed=/);
    await expect(page.getByTestId("owner-post-list")).toContainText("Undo me");
    await expect(page.getByRole("link", { name: "Trash (0)" })).toBeVisible();
  });

  test("Delete forever asks first, then removes that post alone, for good", async ({
    page,
    playwright,
    baseURL,
  }) => {
    const owner = await playwright.request.newContext({ baseURL });
    await signInRequest(owner);
    const [doomed, kept] = await seed(owner, ["Doomed post", "Kept in the trash"]);
    for (const id of [kept, doomed]) {
      expect((await owner.delete(`/api/posts/${id}`)).status()).toBe(200);
    }
    await signInPage(page, "/admin/posts/trash");
    const row = page
      .getByTestId("trash-list")
      .getByRole("listitem")
      .filter({ hasText: "Doomed post" });
    await row.getByRole("button", { name: "Delete forever Doomed post" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this post forever?" });
    await expect(dialog).toContainText(
      "“Doomed post”, its URL and its history will be gone for good.",
    );
    // Escape keeps it.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    expect((await storedPosts(owner)).map((p) => p.id).sort()).toEqual([doomed, kept].sort());

    await row.getByRole("button", { name: "Delete forever Doomed post" }).click();
    await dialog.getByRole("button", { name: "Delete forever" }).click();
    await expect(page.getByTestId("trash-notice")).toContainText(
      "“Doomed post” is deleted forever.",
    );
    await expect(page.getByTestId("trash-list")).not.toContainText("Doomed post");
    await expect(page.getByTestId("trash-list")).toContainText("Kept in the trash");
    await expect(page.getByRole("link", { name: "Trash (1)" })).toBeVisible();
    expect((await storedPosts(owner)).map((p) => p.id)).toEqual([kept]);
    // Nothing is left of it: its URL names nothing (404, no longer 410).
    expect((await owner.get("/blog/doomed-post")).status()).toBe(404);
    await owner.dispose();
  });

  test("axe finds no violation on the trash, full (light and dark), with its dialog open, and empty", async ({
    page,
    request,
  }) => {
    const ids = await seed(request, ["Axe one", "Axe two"]);
    await signInPage(page, "/admin/posts/trash");
    const owner = page.request;
    for (const id of ids) expect((await owner.delete(`/api/posts/${id}`)).status()).toBe(200);
    await page.reload();
    await expect(page.getByTestId("trash-list").getByRole("listitem")).toHaveCount(2);
    const violations = async () =>
      (await new AxeBuilder({ page }).analyze()).violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`,
      );
    expect(await violations()).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    expect(await violations()).toEqual([]);
    await page.getByRole("button", { name: "Delete forever Axe one" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(await violations()).toEqual([]);
    await page.keyboard.press("Escape");
    for (const id of ids) {
      await page
        .getByRole("button", { name: `Restore ${id === ids[0] ? "Axe one" : "Axe two"}` })
        .click();
    }
    await expect(page.getByText("The trash is empty.")).toBeVisible();
    expect(await violations()).toEqual([]);
  });
});

test.describe("a trashed post in the editor", () => {
  test.use({ allowConsoleErrors: /status of 404/ });
  test("is not found: the editor alerts Error loading post and goes to /blog", async ({ page }) => {
    const [id] = await seed(page.request, ["Not editable"]);
    await signInPage(page, "/blog");
    expect((await page.request.delete(`/api/posts/${id}`)).status()).toBe(200);
    const alerted = nextAlert(page);
    await page.goto(`/blog/${id}/edit`);
    expect(await alerted).toBe("Error loading post");
    await expect(page).toHaveURL(/\/blog$/);
  });
});

test.describe("the trash without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Restore and Delete forever post their forms; Delete forever confirms on the page", async ({
    page,
    playwright,
    baseURL,
  }) => {
    const owner = await playwright.request.newContext({ baseURL });
    await signInRequest(owner);
    const [restored, doomed] = await seed(owner, ["Comes back", "Goes for good"]);
    for (const id of [restored, doomed]) await owner.delete(`/api/posts/${id}`);

    await signInPage(page, "/admin/posts/trash");
    await page.getByRole("button", { name: "Restore Comes back" }).click();
    await expect(page.getByTestId("trash-notice")).toContainText("“Comes back” is restored.");
    await expect(page.getByTestId("trash-list")).not.toContainText("Comes back");

    await page.getByRole("button", { name: "Delete forever Goes for good" }).click();
    const confirm = page.getByRole("group", { name: "Delete this post forever?" });
    await expect(confirm).toContainText("“Goes for good”, its URL and its history");
    expect((await storedPosts(owner)).map((p) => p.id).sort()).toEqual([restored, doomed].sort());
    await confirm.getByRole("button", { name: "Delete forever" }).click();
    await expect(page.getByTestId("trash-notice")).toContainText(
      "“Goes for good” is deleted forever.",
    );
    await expect(page.getByText("The trash is empty.")).toBeVisible();
    expect((await storedPosts(owner)).map((p) => p.id)).toEqual([restored]);
    await owner.dispose();
  });
});

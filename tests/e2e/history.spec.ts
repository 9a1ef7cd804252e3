import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { nextAlert, signInPage, storedPosts } from "./owner";

/**
 * The editor's History: every save is a version; one opens as its changes to the current
 * version, word by word, and `Restore this version` brings it back as a new version.
 */
test.describe.configure({ mode: "serial" });

const editorArea = (page: Page) => page.getByRole("textbox", { name: "Content *" });

test.beforeAll(async ({ request }) => {
  await request.post("/__test/posts", { data: { reset: true, posts: [] } });
});

/** Replaces the editor's whole text with `text`, as typed. */
async function retype(page: Page, text: string) {
  await editorArea(page).click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
}

test("History lists the versions, shows one's changes word by word, and restores it as a new one", async ({
  page,
  request,
}) => {
  await signInPage(page, "/blog/new");
  await page.getByLabel("Title *").fill("The fox");
  await retype(page, "The quick brown fox jumps.");
  const created = nextAlert(page);
  await page.getByRole("button", { name: "Save Post" }).click();
  expect(await created).toBe("Post guardado exitosamente!");
  await page.waitForURL(/\/blog$/);
  const id = (await storedPosts(request)).find((p) => p.title === "The fox")!.id;

  // A second save: one word removed ("brown"), one added ("red").
  await page.goto(`/blog/${id}/edit`);
  await retype(page, "The quick red fox jumps.");
  const updated = nextAlert(page);
  await page.getByRole("button", { name: "Update Post" }).click();
  expect(await updated).toBe("Post actualizado exitosamente!");
  await page.waitForURL(/\/blog\/the-fox$/);

  // History, by keyboard: the versions, newest first, with their words added and removed.
  await page.goto(`/blog/${id}/edit`);
  await page.getByRole("button", { name: "History" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "History" });
  await expect(dialog).toBeVisible();
  const versions = dialog.getByRole("list", { name: "Saved versions, newest first" });
  await expect(versions.getByRole("listitem")).toHaveCount(2);
  const newer = versions.getByRole("button").first();
  const older = versions.getByRole("button").nth(1);
  await expect(newer).toContainText("Manual save, current");
  await expect(newer).toContainText("+1 \u22121 words");
  await expect(newer).toHaveAccessibleName(/1 word added, 1 removed/);
  await expect(older).toContainText(/^\d{1,2} \w{3}, \d{2}:\d{2} Manual save \+5 \u22120 words/);

  // The older version opens as its changes to the current one.
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(older).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(older).toHaveAttribute("aria-current", "true");
  await expect(dialog.getByRole("heading", { level: 3 })).toBeFocused();
  const diff = dialog.getByTestId("revision-diff");
  await expect(diff.locator("del")).toHaveText("removed: brown");
  await expect(diff.locator("ins")).toHaveText("added: red");
  await expect(diff).toContainText("The quick");
  // Marked by more than colour: struck through and underlined.
  await expect(diff.locator("del")).toHaveCSS("text-decoration-line", "line-through");
  await expect(diff.locator("ins")).toHaveCSS("text-decoration-line", "underline");
  await expect(diff.locator("del .sr-only")).toHaveText("removed:");
  const axe = await new AxeBuilder({ page }).include("dialog").analyze();
  expect(axe.violations).toEqual([]);

  // Restore: the editor holds the older text, and the post shows the newer until Update Post.
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Restore this version" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "History" })).toBeFocused();
  await expect(
    page.getByRole("status").filter({ hasText: /^Restored the version of / }),
  ).toBeVisible();
  await expect(editorArea(page)).toHaveText("The quick brown fox jumps.");
  await expect(page.getByTestId("content-preview")).toContainText("The quick brown fox jumps.");
  expect((await storedPosts(request)).find((p) => p.id === id)?.content).toContain("red");

  // One more version, none gone: the restored one, waiting to be published.
  await page.getByRole("button", { name: "History" }).click();
  await expect(versions.getByRole("listitem")).toHaveCount(3);
  await expect(versions.getByRole("button").first()).toContainText(
    "Restored, current, unpublished changes",
  );
  await expect(versions.getByRole("button").first()).toHaveAccessibleName(
    /1 word added, 1 removed/,
  );
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  const republished = nextAlert(page);
  await page.getByRole("button", { name: "Update Post" }).click();
  expect(await republished).toBe("Post actualizado exitosamente!");
  await page.waitForURL(/\/blog\/the-fox$/);
  await expect(page.getByRole("article")).toContainText("The quick brown fox jumps.");
});

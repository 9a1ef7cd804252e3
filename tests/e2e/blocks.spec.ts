import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { expect, hydrated, test } from "./fixtures";
import { nextAlert, signInPage } from "./owner";

/**
 * Footnotes, math and callouts in Chromium: inserted from the editor's toolbar, pasted as
 * Markdown, saved (math rendered by the server with KaTeX, bad TeX refused with its reason), and
 * read on the post's page: footnote links both ways, KaTeX's stylesheet on that page only, no
 * script but the site's, and nothing axe finds.
 */
test.describe.configure({ mode: "serial" });

const editorArea = (page: Page) => page.getByRole("textbox", { name: "Content *" });

/** Answers the next `window.prompt` with `value`. */
const answerPrompt = (page: Page, value: string) =>
  page.once("dialog", (dialog) => void dialog.accept(value));

async function paste(page: Page, text: string) {
  await editorArea(page).evaluate((element, text) => {
    const transfer = new DataTransfer();
    transfer.setData("text/plain", text);
    element.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, text);
}

const MARKDOWN = [
  "A claim[^1] with $e^{i\\pi} + 1 = 0$ inline.",
  "",
  "$$",
  "\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}",
  "$$",
  "",
  "> [!WARNING]",
  "> Mind the **gap**.",
  "",
  "[^1]: The source of the claim.",
].join("\n");

const stamp = Date.now().toString(36);

test.describe("footnotes, math and callouts", () => {
  test.use({ allowConsoleErrors: /status of 400|Error al guardar el post\./ });

  test("the toolbar inserts each; TeX KaTeX cannot read is refused with its reason", async ({
    page,
  }) => {
    await signInPage(page, "/blog/new");
    await hydrated(page);
    await page.getByLabel("Title *").fill(`Toolbar blocks ${stamp}`);
    await editorArea(page).click();
    await page.keyboard.type("Said");
    answerPrompt(page, "A toolbar note");
    await page.getByRole("button", { name: "Footnote" }).click();
    await page.keyboard.type(" and ");
    answerPrompt(page, "a^2");
    await page.getByRole("button", { name: "Math" }).click();
    await page.keyboard.press("Enter");
    await page.keyboard.type("Careful");
    await page.getByRole("button", { name: "Callout (note, tip, warning)" }).click();
    const callout = page.getByRole("button", { name: "Callout (note, tip, warning)" });
    await expect(callout).toHaveAttribute("aria-pressed", "true");

    const editor = editorArea(page);
    await expect(editor.locator("span.footnote")).toHaveText("A toolbar note");
    await expect(editor.locator("span.math-inline")).toHaveAttribute("data-tex", "a^2");
    await expect(editor.locator("div.callout.callout-note")).toHaveText("Careful");
    // A second press makes it a tip.
    await callout.click();
    await expect(editor.locator("div.callout.callout-tip")).toHaveText("Careful");

    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    answerPrompt(page, "\\frac{a");
    await page.getByRole("button", { name: "Math" }).click();
    await expect(editor.locator("div.math-display")).toHaveAttribute("data-tex", "\\frac{a");
    const [alert] = await Promise.all([
      nextAlert(page),
      page.getByRole("button", { name: "Save Post" }).click(),
    ]);
    expect(alert).toBe("Error al guardar el post. Por favor intenta nuevamente.");
    await expect(page.getByText(/The math “\\frac\{a” cannot be shown: /)).toBeVisible();
    await expect(page).toHaveURL(/\/blog\/new$/);
  });

  test("pasted Markdown saves, and the post's page reads it", async ({ page }) => {
    await signInPage(page, "/blog/new");
    await hydrated(page);
    const title = `Pasted blocks ${stamp}`;
    await page.getByLabel("Title *").fill(title);
    await editorArea(page).click();
    await paste(page, MARKDOWN);
    const editor = editorArea(page);
    await expect(editor.locator("span.footnote")).toHaveText("The source of the claim.");
    await expect(editor.locator("span.math-inline")).toHaveAttribute(
      "data-tex",
      "e^{i\\pi} + 1 = 0",
    );
    await expect(editor.locator("div.math-display")).toHaveCount(1);
    await expect(editor.locator("div.callout.callout-warning strong")).toHaveText("gap");

    await Promise.all([nextAlert(page), page.getByRole("button", { name: "Save Post" }).click()]);
    await expect(page).toHaveURL(/\/blog$/);
    await page
      .getByRole("link", { name: new RegExp(title) })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await hydrated(page);
    const body = page.getByTestId("post-content");

    // Math: KaTeX's HTML and MathML, its stylesheet (and fonts) from this site.
    await expect(body.locator(".math-inline .katex math")).toHaveCount(1);
    await expect(body.locator(".math-display .katex-display math")).toHaveCount(1);
    const stylesheet = page.locator('link[rel="stylesheet"][href*="katex"]');
    await expect(stylesheet).toHaveCount(1);
    const css = await page.request.get((await stylesheet.getAttribute("href"))!);
    expect(css.headers()["cache-control"]).toContain("immutable");
    const fontsLoaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes("KaTeX") && f.status === "loaded")
        .length;
    });
    expect(fontsLoaded).toBeGreaterThan(0);

    // The callout: a note with its label.
    await expect(body.getByRole("note")).toContainText("Warning");
    await expect(body.getByRole("note")).toContainText("Mind the gap.");

    // The footnote: reference to note, and back.
    const ref = body.getByRole("link", { name: "Footnote 1" });
    await expect(ref).toHaveText("1");
    await ref.click();
    await expect(page).toHaveURL(/#fn-1$/);
    await expect(body.locator("section.footnotes li#fn-1")).toContainText(
      "The source of the claim.",
    );
    await body.getByRole("link", { name: "Back to reference 1" }).click();
    await expect(page).toHaveURL(/#fnref-1$/);

    // No script of the post's own: the page's scripts are those of a post without math.
    const scripts = await page
      .locator("script[src]")
      .evaluateAll((all) => all.map((s) => new URL((s as HTMLScriptElement).src).pathname).sort());
    expect(await body.locator("script").count()).toBe(0);

    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);

    // A post without math loads no KaTeX.
    await page.goto("/blog");
    await page
      .getByRole("link", { name: /Toolbar blocks|Pasted blocks/ })
      .first()
      .waitFor();
    const plain = await page
      .locator("a[href^='/blog/']")
      .evaluateAll((links) => links.map((l) => l.getAttribute("href")!));
    const other = plain.find(
      (href) => !href.includes("pasted-blocks") && href.split("/").length === 3,
    );
    expect(other).toBeDefined();
    await page.goto(other!);
    await hydrated(page);
    await expect(page.locator('link[rel="stylesheet"][href*="katex"]')).toHaveCount(0);
    const otherScripts = await page
      .locator("script[src]")
      .evaluateAll((all) => all.map((s) => new URL((s as HTMLScriptElement).src).pathname).sort());
    expect(scripts.length).toBe(otherScripts.length);
  });
});

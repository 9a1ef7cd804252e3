import type { Page } from "@playwright/test";

import { expect, hydrated, test } from "./fixtures";
import { signInPage } from "./owner";

/**
 * The site works under its enforced Content-Security-Policy: loading and using every page,
 * the editor included, raises no violation. Violations are caught by the browser's own
 * `securitypolicyviolation` event, recorded before any page script runs.
 */

async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
    });
  });
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.headers()["content-security-policy"]).toMatch(/'strict-dynamic'/);
  await hydrated(page);
  expect(await violations(page), `CSP violations on ${path}`).toEqual([]);
}

test.describe("positive control", () => {
  // The browser reports the refusal on the console too: that one is expected here.
  test.use({ allowConsoleErrors: /Content Security Policy/ });
  test("the harness sees a violation when a script breaks the policy", async ({ page }) => {
    await recordViolations(page);
    await visit(page, "/");
    // Injected without the nonce, as an attacker's markup would be: blocked and reported.
    await page.evaluate(() => {
      const script = document.createElement("div");
      script.innerHTML = '<img src="data:," onerror="window.__ran = true">';
      document.body.append(script);
    });
    await expect.poll(() => violations(page)).toContainEqual(expect.stringMatching(/^script-src/));
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBe(
      undefined,
    );
  });
});

test.describe("a public page's scripts, allowed by hash", () => {
  test.use({ allowConsoleErrors: /Content Security Policy/ });
  test("run; a script injected into the page's markup does not", async ({ page }) => {
    await recordViolations(page);
    // As if a post had smuggled a script past the sanitizer: the same response, policy included,
    // with one more inline script in its markup.
    await page.route("**/blog", async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        "</main>",
        "<script>window.__injected = true</script></main>",
      );
      await route.fulfill({ response, body: html });
    });
    const response = await page.goto("/blog");
    expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'sha256-/);
    await expect.poll(() => violations(page)).toEqual(["script-src-elem blocked inline"]);
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBe(
      undefined,
    );
    // The page's own scripts ran: the theme switch works.
    const dark = page.getByRole("button", { name: "Dark theme" });
    await dark.click();
    await expect(dark).toHaveAttribute("aria-pressed", "true");
  });
});

test("public pages raise no CSP violation, browsing included", async ({ page }) => {
  await recordViolations(page);
  for (const path of ["/", "/blog", "/blog?page=2", "/blog/1", "/login"]) await visit(page, path);
  // Client-side navigation, the menu and the theme switch run under the policy too.
  await visit(page, "/blog");
  await page.getByRole("button", { name: "Dark theme" }).click();
  await page.getByTestId("post-list").locator("a[href^='/blog/']").first().click();
  await page.waitForURL(/\/blog\/[a-z0-9-]+$/);
  expect(await violations(page)).toEqual([]);
});

test.describe("a 404 page", () => {
  test.use({ allowConsoleErrors: /status of 404/ });
  test("raises no CSP violation", async ({ page }) => {
    await recordViolations(page);
    await page.goto("/no-such-page");
    expect(await violations(page)).toEqual([]);
  });
});

test("the owner's pages and the editor raise no CSP violation while in use", async ({ page }) => {
  await recordViolations(page);
  await signInPage(page, "/admin/messages");
  await visit(page, "/admin/messages");
  await visit(page, "/blog/1/edit");
  await visit(page, "/blog/new");
  const editor = page.locator(".ProseMirror");
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.type("Written under a strict policy");
  await page.getByRole("button", { name: "Bold" }).click();
  // The toolbar hands focus back to the editor; keys typed before it arrives would be lost.
  await expect(editor).toBeFocused();
  await expect(page.getByRole("button", { name: "Bold" })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.type(" and bold");
  await page.getByRole("button", { name: "Heading 2" }).click();
  await expect(editor).toContainText("and bold");
  expect(await violations(page)).toEqual([]);
});

import AxeBuilder from "@axe-core/playwright";

import { expect, hydrated, test } from "./fixtures";

for (const scheme of ["light", "dark"] as const) {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 740 },
  ]) {
    test(`axe finds no violation on the home page (${scheme}, ${viewport.width}px)`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ colorScheme: scheme, viewport });
      const page = await context.newPage();
      await page.goto("/");
      await hydrated(page);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`),
      ).toEqual([]);
      await context.close();
    });
  }
}

test.describe("the error page", () => {
  test.use({ allowConsoleErrors: /status of 404/ });
  test("axe finds no violation on it", async ({ page }) => {
    await page.goto("/nothing-here");
    await hydrated(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});

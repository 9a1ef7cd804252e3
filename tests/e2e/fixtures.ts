import { test as base, expect, type Page } from "@playwright/test";

/**
 * Every page test fails on a console error or an uncaught exception, unless the test names
 * the messages it expects (e.g. the browser's own note about a 404 document) in one RegExp.
 * (One RegExp, not a list: Playwright reads a two-item array as its `[value, options]` form.)
 */
export const test = base.extend<{ allowConsoleErrors: RegExp | null; consoleGuard: void }>({
  /**
   * `page.goto` and `page.reload` return once a page that hydrates has hydrated. Such a page
   * fetches its framework only after its first paint (app/features/site/hydration-scripts.tsx), so
   * a test that clicked at once would meet the server's markup, as a visitor's very first tap
   * can; what that markup does without JavaScript is tested on its own ("without JavaScript").
   * A navigation with `waitUntil: "commit"` returns at once, as asked.
   */
  // `provide`, not `use`: the React hooks lint rule reads any call of `use` as React's.
  page: async ({ page }, provide) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    const settled = async <T>(response: T, waitUntil?: string) => {
      if (waitUntil !== "commit" && (await page.evaluate(() => "__reactRouterContext" in window))) {
        await hydrated(page);
      }
      return response;
    };
    page.goto = async (url, options) => settled(await goto(url, options), options?.waitUntil);
    page.reload = async (options) => settled(await reload(options), options?.waitUntil);
    await provide(page);
  },
  allowConsoleErrors: [null, { option: true }],
  consoleGuard: [
    async ({ page, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      const report = (text: string) => {
        if (!allowConsoleErrors?.test(text)) errors.push(text);
      };
      page.on("console", (message) => {
        if (message.type() === "error") report(message.text());
      });
      page.on("pageerror", (error) => report(`uncaught: ${error.message}`));
      await use();
      expect(errors, "console errors on the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until the page stops scrolling, then returns the scroll offset. */
/**
 * Waits until the page has scrolled to `y`. Unlike settledScrollY, a smooth scroll that stalls
 * for a moment (a renderer starved of CPU while other tests run) is not taken as finished.
 */
export async function expectScrollY(page: Page, y: number) {
  await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 10_000 }).toBe(y);
}

export async function settledScrollY(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let last = -1;
        let stable = 0;
        const tick = () => {
          const y = window.scrollY;
          stable = y === last ? stable + 1 : 0;
          last = y;
          if (stable >= 5) resolve(y);
          else setTimeout(tick, 50);
        };
        tick();
      }),
  );
}

/**
 * Waits until React has hydrated the page: the theme toggle reports its state (found by its data
 * attribute, which a phone's closed menu does not hide from a locator).
 */
export async function hydrated(page: Page) {
  await expect(page.locator("[data-theme-toggle]").first()).toHaveAttribute(
    "aria-pressed",
    /true|false/,
  );
}

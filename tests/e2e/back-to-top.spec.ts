import type { Page } from "@playwright/test";

import { expect, expectScrollY, test } from "./fixtures";

/**
 * Back to top, from the button's own focus: a real click or Enter focuses it, and it hides
 * itself once the page is within 300 px of the top, while the smooth scroll is still on its way.
 * Neither page hydrates: the site script's button answers on both (the home page, with its
 * contact form, and the blog). Both must reach the top and leave focus on the page's main
 * heading, not on a hidden button or the document's body.
 */
const pages = [
  { path: "/", heading: "Alex Byrne" },
  { path: "/blog", heading: "Blog" },
];

// A phone's height, so that even the blog's first page scrolls well past the threshold.
test.use({ viewport: { width: 390, height: 600 } });

async function scrolledDown(page: Page, path: string) {
  await page.goto(path);
  await page.evaluate(() => window.scrollTo(0, 700));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(700);
  const button = page.getByRole("button", { name: "Back to top" });
  await expect(button).toBeVisible();
  return button;
}

async function expectAtTopWithFocusOn(page: Page, heading: string) {
  await expectScrollY(page, 0);
  await expect(page.getByRole("button", { name: "Back to top" })).toHaveCount(0);
  await expect(
    page.getByRole("main").getByRole("heading", { level: 1, name: heading }),
  ).toBeFocused();
}

for (const { path, heading } of pages) {
  test(`on ${path}, a click on Back to top reaches the top and focuses the main heading`, async ({
    page,
  }) => {
    const button = await scrolledDown(page, path);
    // Smooth, as the site scrolls without reduced motion.
    expect(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches)).toBe(
      false,
    );
    await button.click();
    await expectAtTopWithFocusOn(page, heading);
  });

  test(`on ${path}, Back to top by keyboard reaches the top and focuses the main heading`, async ({
    page,
  }) => {
    const button = await scrolledDown(page, path);
    await button.focus();
    await page.keyboard.press("Enter");
    await expectAtTopWithFocusOn(page, heading);
    // The next Tab goes on from the top of the content, not from where the button was.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
  });
}

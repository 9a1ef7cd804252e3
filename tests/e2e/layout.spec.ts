import type { Page } from "@playwright/test";

import { expect, hydrated, settledScrollY, test } from "./fixtures";

async function columns(page: Page, testId: string) {
  return page
    .getByTestId(testId)
    .evaluate(
      (grid) => getComputedStyle(grid).gridTemplateColumns.split(" ").filter(Boolean).length,
    );
}

// Tailwind's breakpoints: sm 640, md 768, lg 1024, xl 1280.
const widths = [
  { width: 375, skills: 1, tools: 1 },
  { width: 640, skills: 2, tools: 2 },
  { width: 768, skills: 2, tools: 3 },
  { width: 1024, skills: 3, tools: 5 },
  { width: 1280, skills: 4, tools: 5 },
];

for (const { width, skills, tools } of widths) {
  test(`at ${width}px the skills grid has ${skills} and the tools grid ${tools} columns`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    expect(await columns(page, "skills-grid")).toBe(skills);
    expect(await columns(page, "tools-grid")).toBe(tools);
    // Nothing spills sideways at any width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  });
}

test.describe("the header at phone width", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("hides the section buttons behind a menu button that reaches them", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const header = page.getByRole("banner");
    await expect(header).toHaveCSS("position", "fixed");
    await expect(header.getByRole("link", { name: "Alex Byrne" })).toBeVisible();
    await expect(header.getByRole("button", { name: "About Me" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Blog" })).toHaveAttribute("href", "/blog");
    for (const label of ["Summary", "Skills", "Experience", "Education", "Tools", "Contact"]) {
      await expect(header.getByRole("button", { name: label, exact: true })).toBeHidden();
    }
    // Everything in the bar fits on one line.
    const bar = await header.getByRole("navigation", { name: "Main" }).boundingBox();
    expect(bar!.height).toBeLessThanOrEqual(64);

    const menu = header.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const education = header.getByRole("button", { name: "Education", exact: true });
    await expect(education).toBeVisible();
    await education.click();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await settledScrollY(page);
    const top = await page.locator("#education").evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(60);
    expect(top).toBeLessThan(120);

    await menu.click();
    await expect(education).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(education).toBeHidden();
  });
});

test.describe("the header on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("shows every section button and no menu button", async ({ page }) => {
    await page.goto("/");
    const header = page.getByRole("banner");
    for (const label of [
      "About Me",
      "Summary",
      "Skills",
      "Experience",
      "Education",
      "Tools",
      "Contact",
    ]) {
      await expect(header.getByRole("button", { name: label, exact: true })).toBeVisible();
    }
    await expect(header.getByRole("button", { name: "Menu" })).toBeHidden();
  });

  test("the name links home and keyboard focus is visible", async ({ page }) => {
    await page.goto("/__test/toast"); // any other page with the header
    await hydrated(page);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Tab");
    const name = page.getByRole("banner").getByRole("link", { name: "Alex Byrne" });
    await expect(name).toBeFocused();
    const outline = await name.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe("none");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("h1")).toHaveText("Alex Byrne");
  });
});

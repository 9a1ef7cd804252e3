import { expect, hydrated, test } from "./fixtures";

/** Records whether <html> is dark at the moment <body> is first created, i.e. before first paint. */
const recordThemeAtBody = () => {
  const observer = new MutationObserver(() => {
    if (document.body) {
      (window as unknown as { darkAtBody: boolean }).darkAtBody =
        document.documentElement.classList.contains("dark");
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
};

for (const scheme of ["light", "dark"] as const) {
  test(`follows a ${scheme} system theme from the very first paint`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await page.addInitScript(recordThemeAtBody);
    await page.goto("/");
    expect(
      await page.evaluate(() => (window as unknown as { darkAtBody: boolean }).darkAtBody),
    ).toBe(scheme === "dark");
    await hydrated(page);
    await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute(
      "aria-pressed",
      String(scheme === "dark"),
    );
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
    expect(dark).toBe(scheme === "dark");
    expect(background).not.toBe("");
    await context.close();
  });
}

test("the toggle switches the theme and the choice survives a reload, over the system's", async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: "light" });
  const page = await context.newPage();
  await page.goto("/");
  await hydrated(page);
  const toggle = page.getByRole("button", { name: "Dark theme" });
  const lightBackground = await page.evaluate(
    () => getComputedStyle(document.body).backgroundColor,
  );
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(
    lightBackground,
  );

  await page.addInitScript(recordThemeAtBody);
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { darkAtBody: boolean }).darkAtBody)).toBe(
    true,
  );
  await hydrated(page);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { darkAtBody: boolean }).darkAtBody)).toBe(
    false,
  );
  await context.close();
});

test("without a choice, the page follows the system theme as it changes", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await hydrated(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
});

import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";

type Timeline = { shown: number; hidden: number; closed: number };

/** Shows a toast and returns when it was shown, started hiding, and called its close handler. */
async function runToast(page: Page, button: string, closeByButton = false): Promise<Timeline> {
  await page.evaluate(() => {
    const w = window as unknown as { hiddenAt?: number };
    const observer = new MutationObserver(() => {
      const toast = document.querySelector('[data-testid="toast"]');
      if (toast?.getAttribute("data-state") === "closed" && w.hiddenAt === undefined) {
        w.hiddenAt = performance.now();
      }
    });
    observer.observe(document.body, { subtree: true, attributes: true, childList: true });
  });
  await page.getByRole("button", { name: button }).click();
  const toast = page.getByTestId("toast");
  await expect(toast).toHaveAttribute("data-state", "open");
  if (closeByButton) await page.getByRole("button", { name: "Close notification" }).click();
  await expect(toast).toHaveCount(0, { timeout: 10_000 });
  return page.evaluate(() => {
    const w = window as unknown as {
      hiddenAt: number;
      __toastEvents: { event: string; at: number }[];
    };
    const at = (name: string) => w.__toastEvents.find((e) => e.event.startsWith(name))!.at;
    return { shown: at("show"), hidden: w.hiddenAt, closed: at("close") };
  });
}

// Timers never fire early, so the lower bounds are exact; the upper bounds allow for a busy machine.
const SLACK_MS = 700;

test("the success toast reads ¡Éxito!, slides in top right and hides after the duration it is given", async ({
  page,
}) => {
  await page.goto("/__test/toast?duration=1500");
  await page.getByRole("button", { name: "Show success" }).waitFor();
  const timeline = runToast(page, "Show success");
  const toast = page.getByTestId("toast");
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute("role", "status");
  await expect(toast).toContainText("¡Éxito!");
  await expect(toast).toContainText("Test success message");
  await expect(toast.getByRole("button", { name: "Close notification" })).toBeVisible();
  const box = await toast.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box!.x + box!.width).toBeGreaterThan(viewport.width - 40);
  expect(box!.y).toBeLessThan(120);
  expect(await toast.evaluate((el) => getComputedStyle(el).animationName)).toBe("toast-in");

  const t = await timeline;
  expect(t.hidden - t.shown).toBeGreaterThanOrEqual(1500);
  expect(t.hidden - t.shown).toBeLessThan(1500 + SLACK_MS);
  expect(t.closed - t.hidden).toBeGreaterThanOrEqual(300 - 5);
  expect(t.closed - t.hidden).toBeLessThan(300 + SLACK_MS);
});

test("the toast stays 3000 ms by default", async ({ page }) => {
  await page.goto("/__test/toast");
  await page.getByRole("button", { name: "Show error" }).waitFor();
  const t = await runToast(page, "Show error");
  expect(t.hidden - t.shown).toBeGreaterThanOrEqual(3000);
  expect(t.hidden - t.shown).toBeLessThan(3000 + SLACK_MS);
  expect(t.closed - t.hidden).toBeGreaterThanOrEqual(300 - 5);
});

test("the error toast reads Error, and its close button hides it and calls close 300 ms later", async ({
  page,
}) => {
  await page.goto("/__test/toast?duration=10000");
  await page.getByRole("button", { name: "Show error" }).waitFor();
  const shown = page.getByTestId("toast");
  const timeline = runToast(page, "Show error", true);
  await expect(shown).toHaveAttribute("role", "alert");
  await expect(shown).toContainText("Error");
  await expect(shown).toContainText("Test error message");
  const t = await timeline;
  expect(t.hidden - t.shown).toBeLessThan(10_000);
  expect(t.closed - t.hidden).toBeGreaterThanOrEqual(300 - 5);
  expect(t.closed - t.hidden).toBeLessThan(300 + SLACK_MS);
});

test("the build the end-to-end tests run has the test-only pages", async ({ request }) => {
  // The production build has none: server.spec.ts.
  expect((await request.get("/__test/toast")).status()).toBe(200);
});

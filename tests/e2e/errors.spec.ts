import { expect, test } from "./fixtures";

test.use({ allowConsoleErrors: /status of (404|500)/ });

test("an unknown route answers 404 with the router's error page and a link home", async ({
  page,
}) => {
  const response = await page.goto("/no/such/page");
  expect(response!.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
  await expect(page.getByText("404 Not Found")).toBeVisible();
  await expect(page).toHaveTitle("404 Not Found · Alex Byrne");
  await expect(page.locator("title")).toHaveCount(1);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await page.getByRole("link", { name: "Go back home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator("h1")).toHaveText("Alex Byrne");
});

test("an unexpected server error answers 500 with the same page and no internals", async ({
  page,
  request,
}) => {
  const raw = await request.get("/__test/error");
  expect(raw.status()).toBe(500);
  const body = await raw.text();
  for (const secret of [
    "Test failure",
    "SELECT",
    "/srv/app",
    "secret.ts",
    "at loader",
    "    at ",
  ]) {
    expect(body).not.toContain(secret);
  }

  const response = await page.goto("/__test/error");
  expect(response!.status()).toBe(500);
  await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
  await expect(page.getByText("500 Internal Server Error")).toBeVisible();
  await expect(page.locator("title")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Go back home" })).toHaveAttribute("href", "/");
});

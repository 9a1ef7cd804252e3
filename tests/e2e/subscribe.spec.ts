import type { APIRequestContext } from "@playwright/test";

import { signInPage } from "./owner";
import { expect, test } from "./fixtures";

/** The first post of the seeded blog. */
async function firstPostPath(request: APIRequestContext) {
  const html = await (await request.get("/blog")).text();
  const slug = /href="(\/blog\/(?!tags)[^"?#/]+)"/.exec(html)?.[1];
  if (!slug) throw new Error("no post on /blog");
  return slug;
}

test.describe("subscribing without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a reader subscribes from the end of a post and sees the answer", async ({
    page,
    request,
  }) => {
    await page.goto(await firstPostPath(request));
    const form = page.getByTestId("subscribe");
    await expect(form.getByRole("heading", { name: "New posts by e-mail" })).toBeVisible();
    await form.getByLabel("Your e-mail").fill("reader@example.com");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/subscribe$/);
    await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
    await expect(page.getByRole("status")).toContainText("a confirmation link is on its way");
  });
});

test("the form is in the cached pages, the same bytes for every visitor", async ({
  playwright,
  request,
  baseURL,
}) => {
  const path = await firstPostPath(request);
  for (const url of ["/", "/blog", path]) {
    const first = await request.get(url);
    // Another visitor, with cookies of their own.
    const other = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Cookie: "theme=dark; _ga=GA1.1.1" },
    });
    const second = await other.get(url);
    expect(second.headers()["x-page-cache"], url).toBe("hit");
    const body = await second.text();
    expect(body).toBe(await first.text());
    expect(body).toContain('action="/subscribe"');
    await other.dispose();
  }
});

test("a forged unsubscribe link changes nothing, by GET or one-click POST", async ({ request }) => {
  const page = await request.get("/unsubscribe?s=1&t=forged");
  expect(page.status()).toBe(400);
  expect(await page.text()).toContain("This unsubscribe link is not valid.");
  const oneClick = await request.post("/unsubscribe?s=1&t=forged", {
    form: { "List-Unsubscribe": "One-Click" },
  });
  expect(oneClick.status()).toBe(400);
});

test("the owner imports a CSV after its preview", async ({ page }) => {
  await signInPage(page, "/admin/subscribers");
  await expect(page.getByRole("heading", { name: "Subscribers" })).toBeVisible();
  const counts = await page.getByTestId("subscriber-counts").textContent();
  const csv = "email\r\nann@example.com\r\nnot-an-address\r\nben@example.com\r\n";
  await page.getByLabel("CSV file").setInputFiles({
    name: "list.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByTestId("import-preview");
  await expect(preview).toContainText("2 new, 0 already there, 1 invalid.");
  await expect(preview.getByTestId("preview-invalid")).toContainText("Row 3: not-an-address");
  // Nothing is stored by the preview.
  await expect(page.getByTestId("subscriber-counts")).toHaveText(counts!);
  await preview.getByLabel(/These people consented/).check();
  await preview.getByRole("button", { name: "Import 2" }).click();
  await expect(page.getByRole("status")).toHaveText("Imported 2 addresses as confirmed.");
  const table = page.getByTestId("subscribers");
  await expect(table.getByRole("row", { name: /ann@example\.com confirmed import/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /ben@example\.com confirmed import/ })).toBeVisible();

  // The export holds them; a search finds one; Remove takes it away.
  const csvFile = await page.request.get("/admin/subscribers.csv");
  expect(csvFile.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(await csvFile.text()).toMatch(/^ann@example\.com,confirmed,import,/m);
  await page.getByLabel("Search addresses").fill("ann@");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=ann%40/);
  await expect(table.getByRole("row")).toHaveCount(2); // the header and ann
  await page.getByRole("button", { name: "Remove ann@example.com" }).click();
  await expect(page.getByRole("status")).toHaveText("Removed.");
  await expect(page.getByText("No subscriber matches.")).toBeVisible();
});

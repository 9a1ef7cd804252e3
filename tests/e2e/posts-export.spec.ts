import { readFile } from "node:fs/promises";

import { strFromU8, unzipSync } from "fflate";

import { expect, test } from "./fixtures";
import { signInPage } from "./owner";

test("Export posts downloads every post as Markdown with front matter, in one zip", async ({
  page,
  playwright,
  baseURL,
}) => {
  await signInPage(page, "/admin/posts");
  const counted = /^(\d+) posts?\./.exec(
    (await page.getByText(/^\d+ posts?\. Drafts and scheduled/).textContent()) ?? "",
  );
  const total = Number(counted?.[1]);
  expect(total).toBeGreaterThan(0);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export posts" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^posts-\d{4}-\d\d-\d\d\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  const markdown = Object.keys(files).filter((name) => name.endsWith("/index.md"));
  expect(markdown).toHaveLength(total);
  const first = strFromU8(files[markdown[0]!]!);
  expect(first).toMatch(/^---\ntitle: ".+"\nslug: "[a-z0-9-]+"\n/);
  expect(first).toMatch(/\ndraft: (true|false)\n/);
  expect(first).toContain("\nsyndication: [");

  // Visitors get no export.
  const visitor = await playwright.request.newContext({ baseURL });
  const refused = await visitor.get("/admin/posts/export.zip", { maxRedirects: 0 });
  expect(refused.headers()["content-type"] ?? "").not.toContain("application/zip");
  expect(refused.status()).not.toBe(200);
});

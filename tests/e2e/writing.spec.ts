// Writing for developers: highlighted code, images, tables, rules, inline code, links,
// Markdown paste, and the reader's reading time, contents and anchors. One server of its own
// (E2E_PORT_BASE + 6, playwright.config.ts), fresh at every run: the first post saved here is the first
// highlight since the server started, which is when Shiki has been seen to get colours wrong.
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import sharp from "sharp";

import { expect, test } from "./fixtures";
import { signInPage, signInRequest } from "./owner";

test.describe.configure({ mode: "serial" });

const editorArea = (page: Page) => page.getByRole("textbox", { name: "Content *" });

type Stored = { posts: { id: number; title: string; content: string }[]; images: number };
const stored = async (request: APIRequestContext) =>
  (await (await request.get("/__test/posts")).json()) as Stored;

/** Saves the post on screen (accepting the original's success alert) and opens it. */
async function saveAndOpen(page: Page, request: APIRequestContext, title: string) {
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Save Post" }).click();
  await page.waitForURL(/\/blog$/);
  const post = (await stored(request)).posts.find((p) => p.title === title);
  expect(post, `post "${title}" stored`).toBeDefined();
  await page.goto(`/blog/${post!.id}`);
  return post!;
}

async function newPost(page: Page, title: string) {
  await page.goto("/blog/new");
  await page.getByLabel("Title *").fill(title);
  await expect(editorArea(page)).toBeVisible();
  await editorArea(page).click();
}

/** A photo-like JPEG with camera and GPS EXIF, `width` × `height`. */
async function cameraJpeg(width: number, height: number): Promise<Buffer> {
  const jpeg = await sharp({
    create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#f5b700"/></svg>`,
        ),
      },
    ])
    .jpeg()
    .withExif({
      IFD0: { Make: "SpyCam", Model: "GPS 3000" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "53/1 20/1 0/1" },
    })
    .toBuffer();
  expect((await sharp(jpeg).metadata()).exif, "the fixture carries EXIF").toBeDefined();
  return jpeg;
}

/** Dispatches a paste of `files` and/or text into the editor, as the browser would. */
async function paste(
  page: Page,
  data: { files?: { name: string; type: string; base64: string }[]; text?: string; html?: string },
) {
  await editorArea(page).evaluate((element, { files, text, html }) => {
    const transfer = new DataTransfer();
    for (const file of files ?? []) {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: file.type }));
    }
    if (text !== undefined) transfer.setData("text/plain", text);
    if (html !== undefined) transfer.setData("text/html", html);
    element.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, data);
}

/** Dispatches a drop of one file onto the editor's last line. */
async function drop(page: Page, file: { name: string; type: string; base64: string }) {
  await editorArea(page).evaluate((element, file) => {
    const transfer = new DataTransfer();
    const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], file.name, { type: file.type }));
    const box = element.getBoundingClientRect();
    const last = element.lastElementChild!.getBoundingClientRect();
    const at = { clientX: box.left + 20, clientY: last.bottom - 4 };
    element.dispatchEvent(
      new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true, ...at }),
    );
  }, file);
}

/** Selects the first occurrence of `text` in the editor, as a drag of the mouse would. */
async function selectText(page: Page, text: string) {
  await editorArea(page).evaluate((element, text) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(text);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
      return;
    }
    throw new Error(`"${text}" is not in the editor`);
  }, text);
  // ProseMirror reads the DOM selection on selectionchange.
  await page.waitForTimeout(50);
}

async function describeImage(page: Page, alt: string) {
  const dialog = page.getByRole("dialog", { name: "Describe this image" });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await dialog.getByLabel("Alt text").fill(alt);
  await dialog.getByRole("button", { name: "Save alt text" }).click();
  await expect(dialog).toBeHidden();
}

const CODE = [
  "interface User { id: number; name: string }",
  "// The longest line in this post, long enough that a phone has to scroll it sideways inside the block and never the page",
  'export const greet = (user: User): string => `Hello, ${user.name} <&> "friends"`;',
].join("\n");

test.beforeAll(async ({ request }) => {
  await request.post("/__test/posts", { data: { reset: true, posts: [] } });
});

test("a TypeScript block is coloured on the server, in both themes, and copies exactly", async ({
  page,
  request,
  context,
}) => {
  await signInPage(page, "/blog/new");
  await newPost(page, "Typed greetings");
  await page.keyboard.type("Intro paragraph.");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Code block" }).click();
  // The language picker appears in a code block only.
  const language = page.getByLabel("Language");
  await expect(language).toBeVisible();
  await page.keyboard.insertText(CODE);
  await language.selectOption({ label: "TypeScript" });
  await expect(editorArea(page).locator("pre code")).toHaveClass(/language-typescript/);

  // Each script the browser loads from here on, read again by URL at the end: a body read in the
  // listener is gone once the page has moved on (the save's redirect, then the post).
  const scriptUrls = new Set<string>();
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scriptUrls.add(response.url());
  });
  await saveAndOpen(page, request, "Typed greetings");
  const block = page.locator(".code-block").first();
  await expect(block.locator(".code-language")).toHaveText("TypeScript");
  const tokens = block.locator("pre.shiki span.line > span");
  expect(await tokens.count()).toBeGreaterThan(10);

  const colours = () =>
    tokens.evaluateAll((spans) => [...new Set(spans.map((s) => getComputedStyle(s).color))]);
  // Light theme: many distinct colours (the first-highlight bug gives every token one colour).
  const light = await colours();
  expect(light.length).toBeGreaterThanOrEqual(4);
  const keyword = block.locator("pre.shiki span", { hasText: /^interface$/ });
  const lightKeyword = await keyword.evaluate((s) => getComputedStyle(s).color);
  // Dark theme: the tokens take their --shiki-dark colours.
  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect
    .poll(() => keyword.evaluate((s) => getComputedStyle(s).color))
    .not.toBe(lightKeyword);
  const dark = await colours();
  expect(dark.length).toBeGreaterThanOrEqual(4);
  expect(dark).not.toEqual(light);
  const background = await block
    .locator("pre")
    .evaluate((pre) => getComputedStyle(pre).backgroundColor);
  expect(background).toBe("rgb(13, 17, 23)");
  // axe in the dark theme (contrast of every token), then the light one.
  expect((await new AxeBuilder({ page }).include("article").analyze()).violations).toEqual([]);
  await page.getByRole("button", { name: "Dark theme" }).click();
  expect((await new AxeBuilder({ page }).include("article").analyze()).violations).toEqual([]);

  // No highlighter reached the browser.
  expect(scriptUrls.size).toBeGreaterThan(0);
  for (const url of scriptUrls) {
    const answer = await request.get(url);
    expect(answer.status(), url).toBe(200);
    const script = await answer.text();
    expect(script).not.toMatch(/codeToHtml|createHighlighter|tokenizeWithTheme/);
  }

  // Copy code, by keyboard: the exact text, and it says so.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const copy = block.getByRole("button", { name: "Copy code" });
  await copy.focus();
  await page.keyboard.press("Enter");
  await expect(block.getByRole("button", { name: "Copied" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
  await expect(block.getByRole("button", { name: "Copy code" })).toBeVisible({ timeout: 5_000 });

  // On a phone the block scrolls sideways, the page does not.
  await page.setViewportSize({ width: 360, height: 740 });
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  const pre = block.locator("pre");
  expect(await pre.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(pre).toHaveAttribute("tabindex", "0");

  // The editor gets the code back as a TypeScript block of the same text.
  const post = (await stored(request)).posts.find((p) => p.title === "Typed greetings")!;
  await page.goto(`/blog/${post.id}/edit`);
  await expect(editorArea(page).locator("pre code")).toHaveClass(/language-typescript/);
  expect(await editorArea(page).locator("pre code").textContent()).toBe(CODE);
});

test.describe("images", () => {
  // The refusals below are the server's 400 answers, which Chromium logs.
  test.use({ allowConsoleErrors: /status of 400/ });

  test("images by button, paste and drop: uploaded, described, responsive; refusals store nothing", async ({
    page,
    request,
  }) => {
    // Uploads by button, paste and drop (each resized by sharp), the refusals, a save and the
    // reader: it took 59 s alone on a slow hour of a shared two-core machine, against the 60 s
    // every test gets, and timed out in a full run.
    test.slow();
    await signInPage(page, "/blog/new");
    await newPost(page, "Pictures");
    await page.keyboard.type("Above the first picture.");
    await page.keyboard.press("Enter");

    const jpeg = await cameraJpeg(2000, 1500);
    const before = (await stored(request)).images;

    // The Image button opens the file picker.
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Image" }).click();
    await (await chooser).setFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await describeImage(page, "A yellow circle on blue");
    await expect(editorArea(page).locator("img")).toHaveCount(1);

    // Saving with an image that has no alt text is refused, and nothing is sent.
    await expect(editorArea(page)).toBeFocused();
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Between the pictures. ".repeat(20));
    const png = await sharp({
      create: { width: 640, height: 480, channels: 4, background: "#22aa55" },
    })
      .png()
      .toBuffer();
    await paste(page, {
      files: [{ name: "pasted.png", type: "image/png", base64: png.toString("base64") }],
    });
    const dialog = page.getByRole("dialog", { name: "Describe this image" });
    await expect(dialog).toBeVisible({ timeout: 15_000 });
    // Save without describing it: the dialog says why and stays.
    await dialog.getByRole("button", { name: "Save alt text" }).click();
    await expect(dialog.getByRole("alert")).toContainText("Describe the image");
    await dialog.getByRole("button", { name: "Later" }).click();
    await expect(editorArea(page).locator("img")).toHaveCount(2);
    const posts = (await stored(request)).posts.length;
    await page.getByRole("button", { name: "Save Post" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "no alt text" })).toContainText(
      "An image has no alt text",
    );
    expect((await stored(request)).posts.length).toBe(posts);
    // Describe it through the toolbar's Alt text button.
    await editorArea(page).locator("img").nth(1).click();
    await page.getByRole("button", { name: "Alt text" }).click();
    await describeImage(page, "A green rectangle");

    // Drop a WebP.
    const webp = await sharp({
      create: { width: 900, height: 300, channels: 3, background: "#a33" },
    })
      .webp()
      .toBuffer();
    await drop(page, { name: "dropped.webp", type: "image/webp", base64: webp.toString("base64") });
    await describeImage(page, "A red banner");
    await expect(editorArea(page).locator("img")).toHaveCount(3);
    // The preview shows them too.
    await expect(page.getByTestId("content-preview").locator("img")).toHaveCount(3);

    // Refusals: SVG, an executable named .png, a file over 10 MB. Each says why; none is stored.
    const stage = (await stored(request)).images;
    const refusals: [string, string, Buffer, string][] = [
      [
        "drawing.svg",
        "image/svg+xml",
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
        "SVG images are not accepted: upload a JPEG, PNG, WebP or GIF.",
      ],
      [
        "innocent.png",
        "image/png",
        Buffer.from("\x7fELF\x02\x01\x01\0binary", "binary"),
        "The image must be a JPEG, PNG, WebP or GIF image.",
      ],
      [
        "huge.jpg",
        "image/jpeg",
        Buffer.concat([jpeg, Buffer.alloc(10_000_001 - jpeg.length)]),
        "The image is larger than 10 MB.",
      ],
    ];
    for (const [name, mimeType, buffer, text] of refusals) {
      const picker = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Image" }).click();
      await (await picker).setFiles({ name, mimeType, buffer });
      await expect(page.getByRole("alert").filter({ hasText: text })).toBeVisible();
    }
    expect((await stored(request)).images).toBe(stage);
    await expect(editorArea(page).locator("img")).toHaveCount(3);

    await saveAndOpen(page, request, "Pictures");
    const content = page.getByTestId("post-content");
    const first = content.locator("picture").first();
    await expect(first.locator('source[type="image/webp"]')).toHaveAttribute(
      "srcset",
      /480w, .+800w, .+1200w, .+1600w$/,
    );
    const img = first.locator("img");
    await expect(img).toHaveAttribute("width", "1600");
    await expect(img).toHaveAttribute("height", "1200");
    await expect(img).toHaveAttribute("alt", "A yellow circle on blue");
    await expect(img).toHaveAttribute("loading", "eager");
    await expect(img).toHaveAttribute("src", /\.jpg$/);
    const images = content.locator("img");
    await expect(images).toHaveCount(3);
    await expect(images.nth(1)).toHaveAttribute("loading", "lazy");
    await expect(images.nth(1)).toHaveAttribute("width", "640");
    await expect(images.nth(1)).toHaveAttribute("height", "480");
    // A WebP upload needs no fallback: its own srcset.
    await expect(images.nth(2)).toHaveAttribute("srcset", /\.webp 480w, .+\.webp 900w$/);
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(
      true,
    );

    // The files: immutable, nosniff, no EXIF in any of them.
    const sources = await content.evaluate((root) => [
      ...new Set(
        [...root.querySelectorAll("img, source")].flatMap((el) => [
          ...(el.getAttribute("src") ? [el.getAttribute("src")!] : []),
          ...(el.getAttribute("srcset") ?? "")
            .split(",")
            .map((c) => c.trim().split(" ")[0]!)
            .filter(Boolean),
        ]),
      ),
    ]);
    expect(sources.length).toBeGreaterThanOrEqual(8);
    for (const url of sources) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(200);
      expect(response.headers()["x-content-type-options"]).toBe("nosniff");
      expect(response.headers()["cache-control"]).toContain("immutable");
      const meta = await sharp(await response.body()).metadata();
      expect(meta.exif, `${url} has no EXIF`).toBeUndefined();
    }
    expect((await stored(request)).images).toBeGreaterThan(before);

    // The feed carries the images at absolute URLs.
    const rss = await (await request.get("/rss.xml")).text();
    expect(rss).toMatch(/&lt;img src=&quot;http:\/\/127\.0\.0\.1:\d+\/media\/[0-9a-f]{64}\.jpg/);
    expect(rss).not.toMatch(/src=&quot;\/media/);
  });
});

test("the image API: owner only, same site only, size-capped on the server; refusals store nothing", async ({
  playwright,
  baseURL,
  request,
}) => {
  const png = await sharp({ create: { width: 50, height: 40, channels: 3, background: "#123" } })
    .png()
    .toBuffer();
  const form = (buffer: Buffer, name = "x.png") => ({
    image: { name, mimeType: "image/png", buffer },
  });
  const before = (await stored(request)).images;
  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.post("/api/images", { multipart: form(png) })).status()).toBe(401);
  await anonymous.dispose();

  const owner = await playwright.request.newContext({ baseURL });
  await signInRequest(owner);
  const crossSite: Record<string, string>[] = [
    { origin: "https://evil.example" },
    { "sec-fetch-site": "cross-site" },
  ];
  for (const headers of crossSite) {
    expect((await owner.post("/api/images", { multipart: form(png), headers })).status()).toBe(403);
  }
  // Past the editor's own check: a file over 10 MB is refused by the server too.
  const big = Buffer.concat([png, Buffer.alloc(10_000_001 - png.length)]);
  const tooBig = await owner.post("/api/images", { multipart: form(big) });
  expect(tooBig.status()).toBe(413);
  expect(await tooBig.json()).toEqual({ ok: false, error: "The image is larger than 10 MB." });
  // A request body far past the route's limit is refused by its stated length, unread: the
  // server reads the rest and drops it, so the client, still writing, reads the answer instead
  // of a reset (server/http.test.ts goes on on the same connection).
  const huge = Buffer.alloc(11_000_000, 1);
  const cutOff = await owner.post("/api/images", { multipart: form(huge) });
  expect(cutOff.status()).toBe(413);
  expect(await cutOff.json()).toMatchObject({ ok: false, error: expect.stringMatching(/larger/) });
  const svg = await owner.post("/api/images", {
    multipart: form(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), "x.svg"),
  });
  expect(svg.status()).toBe(400);
  expect(await svg.json()).toEqual({
    ok: false,
    error: "SVG images are not accepted: upload a JPEG, PNG, WebP or GIF.",
  });
  expect((await owner.post("/api/images", { form: { image: "text" } })).status()).toBe(400);
  expect((await stored(request)).images).toBe(before);

  const ok = await owner.post("/api/images", { multipart: form(png) });
  expect(ok.status()).toBe(201);
  const { image } = (await ok.json()) as { image: { src: string; srcset: string } };
  expect(image).toEqual({
    src: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.png$/),
    srcset: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.webp 50w$/),
    width: 50,
    height: 40,
  });
  expect((await stored(request)).images).toBe(before + 2);
  await owner.dispose();
});

test("tables, rule, inline code and links from the toolbar and shortcuts", async ({
  page,
  request,
}) => {
  await signInPage(page, "/blog/new");
  await newPost(page, "Structures");
  await page.keyboard.type("Run npm test before pushing.");
  // Ctrl+E makes the selection inline code; the button shows it pressed.
  await selectText(page, "npm test");
  await page.keyboard.press("Control+e");
  await expect(editorArea(page).locator("code")).toHaveText("npm test");
  await expect(page.getByRole("button", { name: "Inline code" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  // The button does the same: on, then off again.
  await selectText(page, "pushing");
  await page.getByRole("button", { name: "Inline code" }).click();
  await expect(editorArea(page).locator("code").nth(1)).toHaveText("pushing");
  await page.getByRole("button", { name: "Inline code" }).click();
  await expect(editorArea(page).locator("code")).toHaveCount(1);

  // Ctrl+K on the word "Run": a refused scheme says why; https is applied; then removed.
  await selectText(page, "Run");
  await page.keyboard.press("Control+k");
  const linkDialog = page.getByRole("dialog", { name: "Add link" });
  await expect(linkDialog).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await linkDialog.getByLabel("URL").fill("javascript:alert(1)");
  await linkDialog.getByRole("button", { name: "Apply" }).click();
  await expect(linkDialog.getByRole("alert")).toHaveText(
    "A link must be a web address (http:// or https://) or an e-mail address (mailto:).",
  );
  await expect(linkDialog.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
  await linkDialog.getByLabel("URL").fill("https://docs.npmjs.com/cli/commands/npm-test");
  await linkDialog.getByRole("button", { name: "Apply" }).click();
  await expect(editorArea(page).locator("a")).toHaveAttribute(
    "href",
    "https://docs.npmjs.com/cli/commands/npm-test",
  );
  await expect(page.getByRole("button", { name: "Link" })).toHaveAttribute("aria-pressed", "true");
  // The Link button edits it, and can remove it.
  await page.getByRole("button", { name: "Link" }).click();
  const editDialog = page.getByRole("dialog", { name: "Edit link" });
  await expect(editDialog.getByLabel("URL")).toHaveValue(
    "https://docs.npmjs.com/cli/commands/npm-test",
  );
  await editDialog.getByRole("button", { name: "Remove link" }).click();
  await expect(editorArea(page).locator("a")).toHaveCount(0);
  // The editor takes the focus back one animation frame after a dialog's command (TipTap's
  // focus): keys sent before then go to the page, not the text.
  await expect(editorArea(page)).toBeFocused();
  await page.keyboard.press("Control+k");
  await page
    .getByRole("dialog", { name: "Add link" })
    .getByLabel("URL")
    .fill("mailto:me@example.com");
  await page
    .getByRole("dialog", { name: "Add link" })
    .getByRole("button", { name: "Apply" })
    .click();
  await expect(editorArea(page).locator("a")).toHaveAttribute("href", "mailto:me@example.com");

  // A rule, then a table with a header row; rows and columns added and removed.
  await expect(editorArea(page)).toBeFocused();
  await page.keyboard.press("End");
  await page.keyboard.press("End");
  await page.keyboard.press("Control+End");
  await page.getByRole("button", { name: "Horizontal rule" }).click();
  await expect(editorArea(page).locator("hr")).toHaveCount(1);
  await page.getByRole("button", { name: "Table" }).click();
  const table = editorArea(page).locator("table");
  await expect(table.locator("tr")).toHaveCount(3);
  await expect(table.locator("tr").first().locator("th")).toHaveCount(3);
  // The caret is in the first header cell once focus is back in the text.
  await expect(editorArea(page)).toBeFocused();
  await page.keyboard.type("Command");
  await expect(table.locator("th").first()).toHaveText("Command");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Does");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Since");
  // The table's own toolbar, and the rest of the editor, pass axe.
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  const tableBar = page.getByRole("toolbar", { name: "Table" });
  await expect(tableBar.getByRole("button", { name: "Header row" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  // To the last row's last cell: rows and columns are added after it and deleted there.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(tableBar.getByRole("button", { name: "Header row" })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
  await tableBar.getByRole("button", { name: "Add column" }).click();
  await expect(table.locator("tr").first().locator("th")).toHaveCount(4);
  // Into the new column, which is the one deleted.
  await expect(editorArea(page)).toBeFocused();
  await page.keyboard.press("Tab");
  await tableBar.getByRole("button", { name: "Delete column" }).click();
  await expect(table.locator("tr").first().locator("th")).toHaveCount(3);
  await tableBar.getByRole("button", { name: "Add row" }).click();
  await expect(table.locator("tr")).toHaveCount(4);
  await tableBar.getByRole("button", { name: "Delete row" }).click();
  await expect(table.locator("tr")).toHaveCount(3);

  await saveAndOpen(page, request, "Structures");
  const content = page.getByTestId("post-content");
  await expect(content.locator("code")).toHaveText("npm test");
  await expect(content.locator("a[href='mailto:me@example.com']")).toHaveText("Run");
  await expect(content.locator("hr")).toHaveCount(1);
  const frame = content.getByRole("region", { name: "Table 1" });
  await expect(frame.locator("th").first()).toHaveText("Command");
  await expect(frame.locator("th").nth(1)).toHaveText("Does");
  await expect(frame.locator("th").nth(2)).toHaveText("Since");
  await expect(frame.locator("tr")).toHaveCount(3);
});

test("pasted Markdown arrives formatted; images by URL are refused", async ({ page, request }) => {
  await signInPage(page, "/blog/new");
  await newPost(page, "From Markdown");
  const markdown = [
    "## Setup",
    "",
    "Install it with **npm** and read [the docs](https://example.com/docs).",
    "",
    "- one",
    "- two",
    "",
    "```ts",
    "const answer: number = 42;",
    "```",
    "",
    "| Flag | Meaning |",
    "| --- | --- |",
    "| -v | verbose |",
    "",
    "![a remote picture](https://example.com/tracker.png)",
  ].join("\n");
  await paste(page, { text: markdown });
  const area = editorArea(page);
  await expect(area.locator("h2")).toHaveText("Setup");
  await expect(area.locator("strong")).toHaveText("npm");
  await expect(area.locator("a")).toHaveAttribute("href", "https://example.com/docs");
  await expect(area.locator("li")).toHaveCount(2);
  await expect(area.locator("pre code")).toHaveClass(/language-typescript/);
  await expect(area.locator("pre code")).toHaveText("const answer: number = 42;");
  await expect(area.locator("table th").first()).toHaveText("Flag");
  await expect(area.locator("img")).toHaveCount(0);
  await expect(page.getByRole("alert")).toContainText("An image by URL was not added");

  await saveAndOpen(page, request, "From Markdown");
  const content = page.getByTestId("post-content");
  await expect(content.locator(".code-language")).toHaveText("TypeScript");
  expect(await content.locator("pre.shiki span.line > span").count()).toBeGreaterThan(4);
  expect(await content.innerHTML()).not.toContain("example.com/tracker.png");
});

test("the reader: reading time, contents from three headings, anchors that copy their link", async ({
  page,
  request,
  context,
}) => {
  await signInRequest(request);
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
  const content =
    `<p>${words(250)}</p><h2>Getting started</h2><p>${words(250)}</p>` +
    `<h3>Migración rápida</h3><p>${words(150)}</p><h2>Getting started</h2><p>end</p>`;
  const created = await request.post("/api/posts", {
    data: { title: "Long read", description: "", content },
  });
  expect(created.status()).toBe(201);
  const { slug } = (await created.json()) as { slug: string };
  await page.goto(`/blog/${slug}`);
  // 657 words (headings included) at 230 a minute: 2.9 minutes.
  await expect(page.getByText("3 min read")).toBeVisible();
  const toc = page.getByRole("navigation", { name: "Contents" });
  await expect(toc.getByRole("link")).toHaveText([
    "Getting started",
    "Migración rápida",
    "Getting started",
  ]);
  await expect(toc.getByRole("link").nth(1)).toHaveAttribute("href", "#migracion-rapida");
  await expect(toc.getByRole("link").nth(2)).toHaveAttribute("href", "#getting-started-2");
  await expect(page.locator("h3#migracion-rapida")).toHaveText(/Migración rápida/);

  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("link", { name: "Copy the link to “Migración rápida”" }).click();
  await expect(page).toHaveURL(/#migracion-rapida$/);
  await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${new URL(page.url()).origin}/blog/${slug}#migracion-rapida`,
  );

  // This server runs as production does (PAGE_CACHE_HEADER unset there): no response says
  // whether the page was asked for before.
  for (let i = 0; i < 2; i++) {
    const response = await request.get(`/blog/${slug}`);
    expect(response.status()).toBe(200);
    expect(response.headers()["x-page-cache"]).toBeUndefined();
  }

  // Two headings: no contents.
  const short = await request.post("/api/posts", {
    data: { title: "Short", content: "<h2>One</h2><p>a</p><h2>Two</h2><p>b</p>" },
  });
  await page.goto(`/blog/${((await short.json()) as { id: number }).id}`);
  await expect(page.getByText("1 min read")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Contents" })).toHaveCount(0);
});

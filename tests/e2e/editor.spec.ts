import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { nextAlert, signInPage, signInRequest, storedPosts } from "./owner";

test.describe.configure({ mode: "serial" });

const editorArea = (page: Page) => page.getByRole("textbox", { name: "Content *" });

test.beforeAll(async ({ request }) => {
  await request.post("/__test/posts", {
    data: { reset: true, posts: [{ title: "Existing post", content: "<p>Existing body.</p>" }] },
  });
});

test.describe("signing in", () => {
  test.use({ allowConsoleErrors: /status of 401/ });

  test("owner pages send visitors to sign in and back; sign out ends the session", async ({
    page,
  }) => {
    await page.goto("/blog/new");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fblog%2Fnew$/);
    await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);

    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("That password is not right.");

    await page.getByLabel("Password").fill("e2e-owner-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    // The way back to the editor loads its route's module (the editor, the largest chunk) before
    // the address changes: on a busy machine that took longer than the default 5 s.
    await expect(page).toHaveURL(/\/blog\/new$/, { timeout: 15_000 });
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

    const cookie = (await page.context().cookies()).find((c) => c.name === "session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

    await page.goto("/blog");
    await expect(page.getByRole("link", { name: "New post" })).toBeVisible();
    await page.getByRole("link", { name: /Existing post/ }).click();
    await expect(page.getByRole("link", { name: "Edit" })).toBeVisible();

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
    await page.goto("/blog/new");
    await expect(page).toHaveURL(/\/login/);
  });

  test("redirectTo only goes to paths on this site", async ({ page }) => {
    await page.goto("/login?redirectTo=https%3A%2F%2Fevil.example%2F");
    await page.getByLabel("Password").fill("e2e-owner-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  });
});

test.describe("guards", () => {
  test("every write without a session gets 401 and changes nothing", async ({
    playwright,
    baseURL,
  }) => {
    const anonymous = await playwright.request.newContext({ baseURL });
    const before = await storedPosts(anonymous);
    const id = before[0]!.id;
    const body = { title: "Hacked", content: "<p>Hacked</p>" };
    expect((await anonymous.post("/api/posts", { data: body })).status()).toBe(401);
    expect((await anonymous.put(`/api/posts/${id}`, { data: body })).status()).toBe(401);
    expect((await anonymous.delete(`/api/posts/${id}`)).status()).toBe(401);
    expect(await storedPosts(anonymous)).toEqual(before);
    await anonymous.dispose();
  });

  test("a cross-site write with the owner's session gets 403 and changes nothing", async ({
    playwright,
    baseURL,
  }) => {
    const owner = await playwright.request.newContext({ baseURL });
    await signInRequest(owner);
    const before = await storedPosts(owner);
    const id = before[0]!.id;
    const body = { title: "Forged", content: "<p>Forged</p>" };
    const crossSite: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of crossSite) {
      expect((await owner.post("/api/posts", { data: body, headers })).status()).toBe(403);
      expect((await owner.put(`/api/posts/${id}`, { data: body, headers })).status()).toBe(403);
      expect((await owner.delete(`/api/posts/${id}`, { headers })).status()).toBe(403);
      expect((await owner.post("/logout", { headers, maxRedirects: 0 })).status()).toBe(403);
    }
    expect(await storedPosts(owner)).toEqual(before);
    // The same write from this site goes through.
    const ok = await owner.put(`/api/posts/${id}`, {
      data: { title: "Existing post", content: "<p>Existing body.</p>" },
    });
    expect(ok.status()).toBe(200);
    await owner.dispose();
  });

  test("a GET to sign out changes nothing", async ({ page }) => {
    await signInPage(page, "/blog");
    await page.goto("/logout");
    await page.goto("/blog/new");
    await expect(page).toHaveURL(/\/blog\/new$/);
  });
});

test.describe("the editor", () => {
  // The failed-save test logs the failure, as the original does.
  test.use({ allowConsoleErrors: /status of 500|Error al guardar el post\./ });
  test.beforeEach(async ({ page }) => {
    await signInPage(page, "/blog/new");
  });

  test("shows the original's form, hints and preview", async ({ page }) => {
    await expect(page.getByRole("link", { name: "Back to Blog" })).toHaveAttribute("href", "/blog");
    await expect(page.getByRole("button", { name: "Save Post" })).toBeEnabled();
    await expect(page.getByLabel("Title *")).toHaveAttribute("placeholder", "Enter post title...");
    await expect(page.getByLabel("Description")).toHaveAttribute(
      "placeholder",
      "Brief description of your post...",
    );
    await expect(page.getByLabel("Description")).toHaveAttribute("rows", "2");
    await expect(editorArea(page)).toBeVisible();
    expect((await editorArea(page).boundingBox())!.height).toBeGreaterThanOrEqual(400);
    const preview = page.getByTestId("content-preview");
    expect((await preview.boundingBox())!.height).toBeGreaterThanOrEqual(200);
    await expect(preview).toHaveText("Start writing to see the preview...");
    for (const hint of ["Ctrl+B", "Ctrl+I", "Ctrl+Z", "Ctrl+Y"])
      await expect(page.getByText(hint)).toBeVisible();
    await editorArea(page).click();
    await page.keyboard.type("Live text");
    await expect(preview).toContainText("Live text");
  });

  test("each toolbar button makes its HTML and shows as pressed", async ({ page }) => {
    const cases: [string, string][] = [
      ["Bold", "<p><strong>word</strong></p>"],
      ["Italic", "<p><em>word</em></p>"],
      ["Strikethrough", "<p><s>word</s></p>"],
      ["Heading 1", "<h1>word</h1>"],
      ["Heading 2", "<h2>word</h2>"],
      ["Heading 3", "<h3>word</h3>"],
      ["Bullet list", "<ul><li><p>word</p></li></ul>"],
      ["Numbered list", "<ol><li><p>word</p></li></ol>"],
      ["Quote", "<blockquote><p>word</p></blockquote>"],
      ["Code block", "<pre><code>word</code></pre>"],
    ];
    const preview = page.getByTestId("content-preview").locator(".prose");
    for (const [name, html] of cases) {
      await page.goto("/blog/new");
      await editorArea(page).click();
      await page.keyboard.type("word");
      // Select the word inside its paragraph (marks need a selection; blocks use the caret's).
      await page.keyboard.press("Shift+Home");
      const button = page.getByRole("button", { name, exact: true });
      await expect(button).toHaveAttribute("aria-pressed", "false");
      await button.click();
      await expect(button, name).toHaveAttribute("aria-pressed", "true");
      // TipTap keeps an empty paragraph after a block at the end (its trailing node); the
      // editor's HTML leaves it out.
      await expect.poll(() => preview.innerHTML(), { message: name }).toBe(html);
    }
  });

  // Ctrl+A also selects the empty paragraph TipTap keeps after a block at the end (its trailing
  // node): the block formats must still show as pressed, toggle back, and save no such paragraph.
  const blockFormats: [string, string][] = [
    ["Heading 1", "<h1>hello world</h1>"],
    ["Heading 2", "<h2>hello world</h2>"],
    ["Heading 3", "<h3>hello world</h3>"],
    ["Bullet list", "<ul><li><p>hello world</p></li></ul>"],
    ["Numbered list", "<ol><li><p>hello world</p></li></ol>"],
    ["Quote", "<blockquote><p>hello world</p></blockquote>"],
    ["Code block", "<pre><code>hello world</code></pre>"],
  ];
  for (const [name, html] of blockFormats) {
    test(`${name} over the whole text (Ctrl+A) toggles on and off, and saves no trailing paragraph`, async ({
      page,
    }) => {
      const preview = page.getByTestId("content-preview").locator(".prose");
      const button = page.getByRole("button", { name, exact: true });
      await editorArea(page).click();
      await page.keyboard.type("hello world");
      await page.keyboard.press("Control+a");
      await expect(button).toHaveAttribute("aria-pressed", "false");

      await button.click();
      await expect(button).toHaveAttribute("aria-pressed", "true");
      await expect.poll(() => preview.innerHTML()).toBe(html);

      await button.click();
      await expect(button).toHaveAttribute("aria-pressed", "false");
      await expect.poll(() => preview.innerHTML()).toBe("<p>hello world</p>");
      await expect(editorArea(page).locator(":scope > :not(p)")).toHaveCount(0);
      // The text kept the focus through the toolbar's clicks; the title takes it from here.
      await expect(editorArea(page)).toBeFocused();

      // What the form sends: the same HTML, without the editor's trailing empty paragraph.
      let sent: { content?: string } = {};
      await page.route("**/api/posts", async (route) => {
        sent = route.request().postDataJSON() as { content?: string };
        await route.fulfill({ status: 201, json: { id: 1 } });
      });
      await page.getByLabel("Title *").fill("Toggled");
      await Promise.all([nextAlert(page), page.getByRole("button", { name: "Save Post" }).click()]);
      expect(sent.content).toBe("<p>hello world</p>");
    });
  }

  test("a pointer press on a toolbar button leaves the focus in the text, which takes keys at once", async ({
    page,
  }) => {
    await editorArea(page).click();
    await page.keyboard.type("plain ");
    // Every element that takes the focus from here on is counted.
    await page.evaluate(() => {
      const taken: string[] = [];
      (window as unknown as { focusTaken: string[] }).focusTaken = taken;
      document.addEventListener("focusin", (event) => {
        const target = event.target as HTMLElement;
        taken.push(target.getAttribute("aria-label") ?? target.tagName);
      });
    });
    await page.getByRole("button", { name: "Bold", exact: true }).click();
    await page.keyboard.type("strong");
    await page.getByRole("button", { name: "Heading 2", exact: true }).click();
    await page.keyboard.type(" title");
    await expect(editorArea(page).locator("h2 strong")).toHaveText("strong title");
    await expect(editorArea(page).locator("h2")).toHaveText("plain strong title");
    expect(
      await page.evaluate(() => (window as unknown as { focusTaken: string[] }).focusTaken),
    ).toEqual([]);
    await expect(editorArea(page)).toBeFocused();
  });

  test("the block formats' keyboard shortcuts over Ctrl+A toggle on and off too", async ({
    page,
  }) => {
    const preview = page.getByTestId("content-preview").locator(".prose");
    const shortcuts: Record<string, string> = {
      "Heading 1": "Control+Alt+1",
      "Heading 2": "Control+Alt+2",
      "Heading 3": "Control+Alt+3",
      "Bullet list": "Control+Shift+8",
      "Numbered list": "Control+Shift+7",
      Quote: "Control+Shift+B",
      "Code block": "Control+Alt+C",
    };
    for (const [name, html] of blockFormats) {
      await page.goto("/blog/new");
      await editorArea(page).click();
      await page.keyboard.type("hello world");
      await page.keyboard.press("Control+a");
      const button = page.getByRole("button", { name, exact: true });
      await page.keyboard.press(shortcuts[name]!);
      await expect(button, name).toHaveAttribute("aria-pressed", "true");
      await expect.poll(() => preview.innerHTML(), { message: name }).toBe(html);
      await page.keyboard.press(shortcuts[name]!);
      await expect(button, name).toHaveAttribute("aria-pressed", "false");
      await expect.poll(() => preview.innerHTML(), { message: name }).toBe("<p>hello world</p>");
    }
  });

  test("block formats toggle on and off at the caret, without a selection", async ({ page }) => {
    const preview = page.getByTestId("content-preview").locator(".prose");
    for (const [name, html] of blockFormats) {
      await page.goto("/blog/new");
      await editorArea(page).click();
      await page.keyboard.type("hello world");
      const button = page.getByRole("button", { name, exact: true });
      await button.click();
      await expect(button, name).toHaveAttribute("aria-pressed", "true");
      await expect.poll(() => preview.innerHTML(), { message: name }).toBe(html);
      await button.click();
      await expect(button, name).toHaveAttribute("aria-pressed", "false");
      await expect.poll(() => preview.innerHTML(), { message: name }).toBe("<p>hello world</p>");
    }
  });

  test("undo and redo step through a block format toggled over the whole text", async ({
    page,
  }) => {
    const preview = page.getByTestId("content-preview").locator(".prose");
    const heading = page.getByRole("button", { name: "Heading 1", exact: true });
    await editorArea(page).click();
    await page.keyboard.type("hello world");
    await page.waitForTimeout(700); // past the 500 ms grouping delay: typing is its own step
    await page.keyboard.press("Control+a");
    await heading.click();
    await expect(heading).toHaveAttribute("aria-pressed", "true");
    await page.waitForTimeout(700);
    await heading.click();
    await expect.poll(() => preview.innerHTML()).toBe("<p>hello world</p>");

    await page.keyboard.press("Control+z");
    await expect.poll(() => preview.innerHTML()).toBe("<h1>hello world</h1>");
    await expect(heading).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.press("Control+z");
    await expect.poll(() => preview.innerHTML()).toBe("<p>hello world</p>");
    await expect(editorArea(page)).toHaveText("hello world");
    await page.keyboard.press("Control+y");
    await expect.poll(() => preview.innerHTML()).toBe("<h1>hello world</h1>");
    await page.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => preview.innerHTML()).toBe("<p>hello world</p>");
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(preview).toHaveCount(0); // nothing typed: the preview's hint again
  });

  test("undo and redo by keyboard (Ctrl+Z, Ctrl+Y), and by the toolbar", async ({ page }) => {
    const preview = page.getByTestId("content-preview");
    await editorArea(page).click();
    await page.keyboard.type("first");
    await page.waitForTimeout(700); // past the 500 ms grouping delay: a separate undo step
    await page.keyboard.type(" second");
    await expect(preview).toContainText("first second");
    await page.keyboard.press("Control+z");
    await expect(preview).toHaveText("first");
    await page.keyboard.press("Control+y");
    await expect(preview).toHaveText("first second");
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(preview).toHaveText("first");
    await page.getByRole("button", { name: "Redo" }).click();
    await expect(preview).toHaveText("first second");
  });

  test("refuses an empty post with the original's alert and sends nothing", async ({ page }) => {
    let sent = 0;
    page.on("request", (r) => {
      if (r.url().includes("/api/posts")) sent++;
    });
    expect(
      await Promise.all([
        nextAlert(page),
        page.getByRole("button", { name: "Save Post" }).click(),
      ]).then(([t]) => t),
    ).toBe("Por favor completa el título y el contenido");
    await page.getByLabel("Title *").fill("Only a title");
    await editorArea(page).click();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    const [text] = await Promise.all([
      nextAlert(page),
      page.getByRole("button", { name: "Save Post" }).click(),
    ]);
    expect(text).toBe("Por favor completa el título y el contenido");
    expect(sent).toBe(0);
  });

  test("a failed save alerts and keeps everything typed", async ({ page }) => {
    await page.route("**/api/posts", (route) => route.fulfill({ status: 500, body: "boom" }));
    await page.getByLabel("Title *").fill("Kept title");
    await page.getByLabel("Description").fill("Kept description");
    await editorArea(page).click();
    await page.keyboard.type("Kept body");
    const [text] = await Promise.all([
      nextAlert(page),
      page.getByRole("button", { name: "Save Post" }).click(),
    ]);
    expect(text).toBe("Error al guardar el post. Por favor intenta nuevamente.");
    await expect(page).toHaveURL(/\/blog\/new$/);
    await expect(page.getByLabel("Title *")).toHaveValue("Kept title");
    await expect(page.getByLabel("Description")).toHaveValue("Kept description");
    await expect(editorArea(page)).toHaveText("Kept body");
    await expect(page.getByRole("button", { name: "Save Post" })).toBeEnabled();
  });
});

test("create, see it first, edit, see the change, delete: gone", async ({ page, request }) => {
  await signInPage(page, "/blog/new");
  await page.getByLabel("Title *").fill("Brand new post");
  await page.getByLabel("Description").fill("Written in the browser");
  await editorArea(page).click();
  await page.keyboard.type("Hello from the editor");

  // Hold the save until "Saving..." has been seen (the deferred exists before the request does).
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/posts", async (route) => {
    await released;
    await route.continue();
  });
  const created = nextAlert(page);
  await page.getByRole("button", { name: "Save Post" }).click();
  await expect(page.getByRole("button", { name: "Saving..." })).toBeDisabled();
  release();
  expect(await created).toBe("Post guardado exitosamente!");
  await page.unroute("**/api/posts");
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByTestId("post-list").getByRole("heading").first()).toHaveText(
    "Brand new post",
  );

  const saved = (await storedPosts(request)).find((p) => p.title === "Brand new post")!;
  expect(saved.content).toBe("<p>Hello from the editor</p>");
  expect(saved.contentEn).toBeNull();

  await page.getByRole("link", { name: /Brand new post/ }).click();
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/blog/${saved.id}/edit$`));
  await expect(page.getByLabel("Title *")).toHaveValue("Brand new post");
  await expect(editorArea(page)).toHaveText("Hello from the editor");
  await expect(page.getByRole("link", { name: "Cancel" })).toHaveAttribute(
    "href",
    "/blog/brand-new-post",
  );
  await page.getByLabel("Title *").fill("Edited post");
  const updated = nextAlert(page);
  await page.getByRole("button", { name: "Update Post" }).click();
  expect(await updated).toBe("Post actualizado exitosamente!");
  // The URL keeps the slug the title first gave it.
  await expect(page).toHaveURL(/\/blog\/brand-new-post$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edited post");

  await page.getByRole("link", { name: "Edit" }).click();
  await page.getByRole("button", { name: "Delete post" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this post?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Delete post" }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  // Delete moves it to the trash (tests/e2e/trash.spec.ts): off the owner's list, off the blog.
  await expect(page).toHaveURL(new RegExp(`/admin/posts\\?trashed=${saved.id}$`));
  await expect(page.getByTestId("owner-post-list")).not.toContainText("Edited post");
  await page.goto("/blog");
  await expect(page.getByText("Edited post")).toHaveCount(0);
  expect((await storedPosts(request)).find((p) => p.id === saved.id)?.status).toBe("trashed");
});

test.describe("a post that cannot be loaded", () => {
  test.use({ allowConsoleErrors: /status of 404/ });
  test("alerts Error loading post and goes to /blog", async ({ page }) => {
    await signInPage(page, "/blog");
    const alerted = nextAlert(page);
    await page.goto("/blog/999999/edit");
    expect(await alerted).toBe("Error loading post");
    await expect(page).toHaveURL(/\/blog$/);
  });
});

test.describe("when the editor's code fails to load (a page from before a deploy)", () => {
  // Chromium reports each aborted request; the page's own messages are checked in each test.
  test.use({
    allowConsoleErrors:
      /^Failed to load resource: net::ERR_FAILED$|^The editor's code could not load/,
  });
  const editorChunk = /\/assets\/rich-text-editor-[\w-]+\.js$/;

  /** Counts the /blog/new documents the page loads and the errors the page logs about it. */
  function watch(page: Page) {
    const documents: string[] = [];
    const logged: string[] = [];
    page.on("request", (request) => {
      if (
        request.isNavigationRequest() &&
        request.frame() === page.mainFrame() &&
        new URL(request.url()).pathname === "/blog/new"
      )
        documents.push(request.url());
    });
    page.on("console", (message) => {
      if (message.type() === "error" && message.text().startsWith("The editor's code"))
        logged.push(message.text());
    });
    return { documents, logged };
  }

  test("fails on the first load: the page reloads once, then the editor appears", async ({
    page,
  }) => {
    await signInPage(page, "/blog");
    const { documents, logged } = watch(page);
    let aborted = 0;
    // Every request for the chunk from the first document fails (Vite preloads it, then imports).
    await page.route(editorChunk, async (route) => {
      if (documents.length > 1) return route.continue();
      aborted++;
      await route.abort();
    });
    await page.goto("/blog/new");
    await expect(page.getByRole("toolbar", { name: "Formatting" })).toBeVisible();
    await editorArea(page).click();
    await page.keyboard.type("Typed after the reload");
    await expect(page.getByTestId("content-preview")).toContainText("Typed after the reload");
    expect(aborted).toBeGreaterThan(0);
    expect(documents).toHaveLength(2);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^The editor's code could not load; reloading the page once/);
    // The guard is cleared once the chunk loads, so a later failure may reload once again.
    const keys = await page.evaluate(() => Object.keys(sessionStorage));
    expect(keys.filter((key) => key.startsWith("chunk-reload:"))).toEqual([]);
  });

  test("fails every time: exactly one reload, then an error in the editor's place", async ({
    page,
  }) => {
    await signInPage(page, "/blog");
    const { documents, logged } = watch(page);
    await page.route(editorChunk, (route) => route.abort());
    await page.goto("/blog/new");
    const error = page.getByRole("alert").filter({ hasText: "The editor could not load." });
    await expect(error).toBeVisible();
    await expect(error.getByRole("button", { name: "Reload page" })).toBeVisible();
    await expect(page.getByRole("toolbar", { name: "Formatting" })).toHaveCount(0);
    await page.waitForTimeout(2_000); // time enough for another reload, were one coming
    expect(documents).toHaveLength(2);
    await expect(error).toBeVisible();
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^The editor's code could not load; reloading the page once/);
    expect(logged[1]).toMatch(
      /^The editor's code could not load, even after a reload; not reloading again/,
    );
    // The rest of the form stays usable.
    await page.getByLabel("Title *").fill("Still here");
    await expect(page.getByLabel("Title *")).toHaveValue("Still here");
  });
});

test("axe finds no violation on /login and the editor", async ({ page }) => {
  await page.goto("/login");
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await signInPage(page, "/blog/new");
  await expect(page.getByRole("toolbar", { name: "Formatting" })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
});

test("public pages never load editor code (the built route manifest)", async () => {
  const assets = path.resolve(import.meta.dirname, "../../build/client/assets");
  const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f))!;
  const manifest = JSON.parse(
    readFileSync(path.join(assets, manifestFile), "utf8")
      .replace(/^window\.__reactRouterManifest=/, "")
      .replace(/;$/, ""),
  ) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, { module: string; imports?: string[] }>;
  };
  const editorMarkers = /prosemirror|ProseMirror|@tiptap|tiptap/;
  for (const id of ["root", "routes/home", "routes/blog", "routes/blog.post"]) {
    const route = manifest.routes[id]!;
    const files = [
      manifest.entry.module,
      ...manifest.entry.imports,
      route.module,
      ...(route.imports ?? []),
    ];
    for (const file of files) {
      const code = readFileSync(path.join(assets, "..", file), "utf8");
      expect(editorMarkers.test(code), `${id} loads ${file}`).toBe(false);
    }
  }
  // And the editor route does reach it (so the check above can fail).
  const editor = manifest.routes["routes/blog.new"]!;
  const editorCode = [editor.module, ...(editor.imports ?? [])].map((f) =>
    readFileSync(path.join(assets, "..", f), "utf8"),
  );
  const lazyChunk = readdirSync(assets).find((f) => f.startsWith("rich-text-editor-"))!;
  expect(editorCode.some((code) => code.includes(lazyChunk))).toBe(true);
  expect(editorMarkers.test(readFileSync(path.join(assets, lazyChunk), "utf8"))).toBe(true);
});

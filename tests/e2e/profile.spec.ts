import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import sharp from "sharp";

import { expect, hydrated, test } from "./fixtures";
import { signInPage } from "./owner";

/**
 * The owner keeps the home page current at /admin/profile: its own server and database
 * (playwright.config.ts, "profile"), so the edits here disturb no other test. The tests run in
 * order: each starts from what the one before left.
 */
test.describe.configure({ mode: "serial" });
// A refused form answers 400 on purpose; the browser notes each in the console.
test.use({ allowConsoleErrors: /the server responded with a status of 400/ });

const require = createRequire(import.meta.url);
const resumePackage = require("@jsonresume/schema") as {
  validate(doc: unknown, callback: (errors: unknown, valid: boolean) => void): void;
};
const sampleResume = readFileSync(require.resolve("@jsonresume/schema/sample.resume.json"));

function validResume(doc: unknown): boolean {
  let ok = false;
  resumePackage.validate(doc, (_errors, valid) => (ok = valid));
  return ok;
}

async function openEditor(page: Page) {
  await signInPage(page, "/admin/profile");
  await hydrated(page);
}

const experienceForm = (page: Page, name: string) => page.getByRole("form", { name });

/** The headings of the home page's experience timeline, in order. */
async function homeExperience(page: Page) {
  await page.goto("/");
  return page.locator("#experience li h3").allTextContents();
}

test("the owner reaches the editor from the header; anyone else is sent to sign in", async ({
  page,
}) => {
  const anonymous = await page.request.get("/admin/profile", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  expect(anonymous.headers().location).toMatch(/^\/login\?redirectTo=%2Fadmin%2Fprofile/);
  await signInPage(page, "/");
  await hydrated(page);
  await page.getByRole("link", { name: "Profile", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/profile$/);
  for (const heading of ["Profile", "Experience", "Education"]) {
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  }
});

test("axe finds no violation on the editor, in both themes", async ({ browser }) => {
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await openEditor(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`),
    ).toEqual([]);
    await context.close();
  }
});

test("profile edits show on / at once; a wrong field is named and what was typed stays", async ({
  page,
}) => {
  await openEditor(page);
  const form = page.getByRole("form", { name: "Profile" });
  await form.getByLabel("Name", { exact: true }).fill("Alex Byrne-Ní Bhriain");
  await form.getByLabel("Title", { exact: true }).fill("Staff Backend Engineer");
  await form.getByLabel("About").fill("I build payment APIs.\n\nI also run the Dublin Go meetup.");
  // A new tool, with its icon picked from the list: the preview follows the choice.
  const lastTool = form.getByRole("listitem", { name: /^Tools: row/ }).last();
  await lastTool.getByLabel("Tool", { exact: true }).fill("PostgreSQL");
  await lastTool.getByLabel("Icon", { exact: true }).selectOption("postgresql");
  await expect(lastTool.getByTestId("icon-preview").locator("path")).toHaveCount(1);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved.");

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alex Byrne-Ní Bhriain");
  await expect(page.getByRole("navigation", { name: "Main" })).toContainText(
    "Alex Byrne-Ní Bhriain",
  );
  await expect(page.locator("#summary p")).toHaveText([
    "I build payment APIs.",
    "I also run the Dublin Go meetup.",
  ]);
  await expect(page.getByTestId("tools-grid")).toContainText("PostgreSQL");
  await expect(page).toHaveTitle("Alex Byrne-Ní Bhriain · Staff Backend Engineer");
  // Every page shows the name: the blog's cached copy was dropped too.
  await page.goto("/blog");
  await expect(page.getByRole("navigation", { name: "Main" })).toContainText(
    "Alex Byrne-Ní Bhriain",
  );

  await page.goto("/admin/profile");
  await hydrated(page);
  await form.getByLabel("Name", { exact: true }).fill("");
  await form.getByLabel("E-mail").fill("not-an-address");
  const firstLink = form.getByRole("listitem", { name: /^Social links: row 1$/ });
  await firstLink.getByLabel("URL").fill("javascript:alert(1)");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("Name is required.");
  await expect(form).toContainText("Enter an e-mail address like name@example.com.");
  await expect(firstLink).toContainText("Enter an address starting with https:// or http://.");
  await expect(form.getByLabel("E-mail")).toHaveValue("not-an-address");
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alex Byrne-Ní Bhriain");
});

test("the fediverse handle is edited with the profile, checked, and found by WebFinger", async ({
  page,
}) => {
  await openEditor(page);
  const form = page.getByRole("form", { name: "Profile" });
  const handle = form.getByLabel("Fediverse handle");
  // Made from the configured name until the owner picks one.
  await expect(handle).toHaveValue("alexbyrne");
  await handle.fill("alex byrne!");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(handle).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("A handle is 1 to 30 letters, digits or underscores.");
  await handle.fill("@Alex_Dev");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved.");

  await page.reload();
  await expect(form.getByLabel("Fediverse handle")).toHaveValue("alex_dev");
  const host = new URL(page.url()).host;
  await expect(form).toContainText(`Followed on Mastodon and the fediverse as @alex_dev@${host}.`);
  const finger = await page.request.get(
    `/.well-known/webfinger?resource=${encodeURIComponent(`acct:alex_dev@${host}`)}`,
  );
  expect(finger.status()).toBe(200);
  expect(((await finger.json()) as { subject: string }).subject).toBe(`acct:alex_dev@${host}`);
});

test("experience: add, edit, reorder and delete (confirmed), each seen on /", async ({ page }) => {
  await openEditor(page);
  const add = experienceForm(page, "Add experience");
  await add.getByLabel("Title").fill("Platform Engineer");
  await add.getByLabel("Company").fill("Docklands Data");
  await add.getByLabel("From").fill("2018-02");
  await add.getByLabel("To").fill("2019-05");
  await add.getByRole("button", { name: "Add experience" }).click();
  await expect(add.getByRole("status")).toHaveText("Added.");
  await expect(add.getByLabel("Title")).toHaveValue("");
  expect(await homeExperience(page)).toEqual([
    "Senior Backend Developer at Liffey Systems",
    "Backend Developer at Harbour Payments",
    "Junior Software Developer at Grand Canal Labs",
    "Platform Engineer at Docklands Data",
  ]);
  await expect(page.locator("#experience li").last()).toContainText("Feb 2018 - May 2019");

  await page.goto("/admin/profile");
  await hydrated(page);
  const entry = experienceForm(page, "Platform Engineer at Docklands Data");
  await entry.getByLabel("Title").fill("Platform Engineer II");
  await entry.getByRole("button", { name: "Save" }).click();
  // The saved entry's form takes its new name.
  const renamed = experienceForm(page, "Platform Engineer II at Docklands Data");
  await expect(renamed.getByRole("status")).toHaveText("Saved.");
  await renamed.getByRole("button", { name: "Move up" }).click();
  await expect(renamed.getByRole("status")).toHaveText("Moved up.");
  expect((await homeExperience(page))[2]).toBe("Platform Engineer II at Docklands Data");

  await page.goto("/admin/profile");
  await hydrated(page);
  const moved = experienceForm(page, "Platform Engineer II at Docklands Data");
  await moved.getByRole("button", { name: "Move down" }).click();
  await expect(moved.getByRole("status")).toHaveText("Moved down.");
  await moved.getByRole("button", { name: "Delete" }).click();
  // Nothing is deleted until the owner confirms.
  await moved.getByRole("button", { name: "Cancel" }).click();
  expect(await homeExperience(page)).toContain("Platform Engineer II at Docklands Data");
  await page.goto("/admin/profile");
  await hydrated(page);
  const doomed = experienceForm(page, "Platform Engineer II at Docklands Data");
  await doomed.getByRole("button", { name: "Delete" }).click();
  await expect(doomed.getByRole("button", { name: "Confirm delete" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(doomed).toHaveCount(0);
  expect(await homeExperience(page)).not.toContain("Platform Engineer II at Docklands Data");
});

test("every experience and education field says what is wrong", async ({ page }) => {
  await openEditor(page);
  const add = experienceForm(page, "Add experience");
  await add.getByLabel("From").fill("March 2020");
  await add.getByRole("button", { name: "Add experience" }).click();
  await expect(add).toContainText("Title is required.");
  await expect(add).toContainText("Company is required.");
  await expect(add).toContainText("Enter a date as YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2023-03).");
  await expect(add).toContainText("Enter when it ended, or tick the box if it has not.");
  await expect(add.getByLabel("From")).toHaveValue("March 2020");
  await add.getByLabel("Title").fill("Dev");
  await add.getByLabel("Company").fill("Acme");
  await add.getByLabel("From").fill("2020-03");
  await add.getByLabel("To").fill("2019-01");
  await add.getByRole("button", { name: "Add experience" }).click();
  await expect(add).toContainText("To must not be before From.");

  const study = experienceForm(page, "Add education");
  await study.getByRole("button", { name: "Add education" }).click();
  await expect(study).toContainText("Degree is required.");
  await expect(study).toContainText("Institution is required.");
  await expect(study).toContainText("From is required.");
  await study.getByLabel("Degree").fill("PhD in Distributed Systems");
  await study.getByLabel("Institution").fill("Trinity College Dublin");
  await study.getByLabel("From").fill("2025-09");
  await study.getByLabel("Currently studying").check();
  await study.getByRole("button", { name: "Add education" }).click();
  await expect(study.getByRole("status")).toHaveText("Added.");
  await page.goto("/");
  await expect(page.locator("#education li").last()).toContainText(
    "PhD in Distributed Systems at Trinity College Dublin",
  );
  await expect(page.locator("#education li").last()).toContainText("Sep 2025 - Present");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the forms post, refuse with the typed values kept, and delete after a confirmation", async ({
    page,
  }) => {
    await signInPage(page, "/admin/profile");
    const add = experienceForm(page, "Add experience");
    await add.getByLabel("Title").fill("Contractor");
    await add.getByLabel("Company").fill("");
    await add.getByLabel("From").fill("2017");
    await add.getByLabel("To").fill("2018");
    await add.getByRole("button", { name: "Add experience" }).click();
    await expect(add).toContainText("Company is required.");
    await expect(add.getByLabel("Title")).toHaveValue("Contractor");
    await add.getByLabel("Company").fill("Self-employed");
    await add.getByRole("button", { name: "Add experience" }).click();
    await expect(add.getByRole("status")).toHaveText("Added.");

    const entry = experienceForm(page, "Contractor at Self-employed");
    await entry.getByRole("button", { name: "Delete" }).click();
    const confirm = experienceForm(page, "Contractor at Self-employed");
    await confirm.getByRole("button", { name: "Confirm delete" }).click();
    await expect(experienceForm(page, "Contractor at Self-employed")).toHaveCount(0);
  });
});

async function photoFixtures() {
  const base = sharp({
    create: { width: 900, height: 600, channels: 3, background: { r: 30, g: 120, b: 200 } },
  });
  const jpeg = await base
    .clone()
    .jpeg()
    .withExif({
      IFD0: { Make: "SpyCam", Model: "GPS 3000" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "53/1 20/1 0/1" },
    })
    .toBuffer();
  const png = await base.clone().png().toBuffer();
  const webp = await base.clone().webp().toBuffer();
  return { jpeg, png, webp };
}

test("photo uploads: resized WebP with dimensions, EXIF gone; the wrong files are refused", async ({
  page,
}) => {
  const { jpeg, png, webp } = await photoFixtures();
  expect((await sharp(jpeg).metadata()).exif).toBeDefined();
  await openEditor(page);
  const form = page.getByRole("form", { name: "Photo" });
  const upload = async (name: string, mimeType: string, buffer: Buffer) => {
    await form.getByLabel("Photo").setInputFiles({ name, mimeType, buffer });
    await form.getByRole("button", { name: "Upload photo" }).click();
  };

  await upload("me.svg", "image/svg+xml", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
  await expect(form.getByRole("alert")).toContainText("SVG");
  await upload("me.jpg", "image/jpeg", Buffer.from("\x7fELF\x02\x01\x01\0binary", "binary"));
  await expect(form.getByRole("alert")).toContainText("must be a JPEG, PNG or WebP image");
  await upload("huge.jpg", "image/jpeg", Buffer.alloc(5_000_001, 0xff));
  await expect(form.getByRole("alert")).toContainText("larger than 5 MB");
  await page.goto("/");
  await expect(page.getByRole("img", { name: /^Portrait of/ })).toHaveAttribute(
    "src",
    "/images/profile.svg",
  );

  for (const [name, type, bytes] of [
    ["me.png", "image/png", png],
    ["me.webp", "image/webp", webp],
    ["me.jpg", "image/jpeg", jpeg],
  ] as const) {
    await page.goto("/admin/profile");
    await hydrated(page);
    await upload(name, type, bytes);
    await expect(form.getByRole("status")).toHaveText("Photo uploaded.");
  }

  await page.goto("/");
  const photo = page.getByRole("img", { name: /^Portrait of/ });
  await expect(photo).toHaveAttribute("width", "160");
  await expect(photo).toHaveAttribute("height", "160");
  const srcset = (await photo.getAttribute("srcset")) ?? "";
  const candidates = srcset.split(", ").map((c) => c.split(" "));
  expect(candidates.length).toBeGreaterThanOrEqual(2);
  for (const [url] of candidates) {
    const response = await page.request.get(url!);
    expect(response.headers()["content-type"]).toBe("image/webp");
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    const meta = await sharp(await response.body()).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.width).toBe(meta.height);
  }
  // The JPEG named as the owner's image (JSON-LD; drawn on share cards) carries no EXIF either.
  const person = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent())!,
  ) as { image: string };
  const share = person.image;
  expect(share).toMatch(/\/media\/[0-9a-f]{64}\.jpg$/);
  const shared = await page.request.get(share!);
  expect(shared.headers()["content-type"]).toBe("image/jpeg");
  const meta = await sharp(await shared.body()).metadata();
  expect(meta.exif).toBeUndefined();
});

test("CV uploads: a PDF is served from the database; anything else is refused", async ({
  page,
}) => {
  await openEditor(page);
  const form = page.getByRole("form", { name: "CV" });
  const pdf = Buffer.from(
    "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  );
  await form.getByLabel("CV (PDF)").setInputFiles({
    name: "cv.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("MZ\x90\0 not a pdf", "binary"),
  });
  await form.getByRole("button", { name: "Upload CV" }).click();
  await expect(form.getByRole("alert")).toContainText("The CV must be a PDF.");
  await form.getByLabel("CV (PDF)").setInputFiles({
    name: "cv.pdf",
    mimeType: "application/pdf",
    buffer: pdf,
  });
  await form.getByRole("button", { name: "Upload CV" }).click();
  await expect(form.getByRole("status")).toHaveText("CV uploaded.");
  await page.goto("/");
  const href = await page.getByRole("link", { name: "Download CV" }).getAttribute("href");
  expect(href).toMatch(/^\/media\/[0-9a-f]{64}\.pdf$/);
  const response = await page.request.get(href!);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  expect(Buffer.from(await response.body()).equals(pdf)).toBe(true);
});

test("JSON Resume: served valid, imported after a preview, refused with paths, round trip", async ({
  page,
}) => {
  const served = await page.request.get("/resume.json");
  expect(served.headers()["content-type"]).toMatch(/^application\/json/);
  const before = await served.json();
  expect(validResume(before)).toBe(true);
  await page.goto("/");
  await expect(page.locator('link[rel="alternate"][type="application/json"]')).toHaveAttribute(
    "href",
    "/resume.json",
  );

  await openEditor(page);
  const importForm = page.getByRole("form", { name: "Import JSON Resume" });
  const importFile = async (name: string, buffer: Buffer) => {
    await importForm.getByLabel("JSON Resume file").setInputFiles({
      name,
      mimeType: "application/json",
      buffer,
    });
    await importForm.getByRole("button", { name: "Import JSON Resume" }).click();
  };
  const broken = { ...JSON.parse(sampleResume.toString()) };
  broken.basics = { ...broken.basics, email: "not-an-email" };
  broken.work = [{ name: "X", startDate: "yesterday" }];
  await importFile("broken.json", Buffer.from(JSON.stringify(broken)));
  await expect(importForm.getByRole("alert")).toContainText("not a valid JSON Resume");
  await expect(importForm.getByRole("list", { name: "Fields to fix" })).toContainText(
    "basics.email",
  );
  await expect(importForm.getByRole("list", { name: "Fields to fix" })).toContainText(
    "work[0].startDate",
  );
  expect(await (await page.request.get("/resume.json")).json()).toEqual(before);

  await importFile("sample.resume.json", sampleResume);
  const confirm = page.getByRole("form", { name: "Confirm import" });
  await expect(confirm).toContainText("Richard Hendriks");
  // Previewed, not applied.
  expect(await (await page.request.get("/resume.json")).json()).toEqual(before);
  await confirm.getByRole("button", { name: "Confirm import" }).click();
  await expect(importForm.getByRole("status")).toContainText("Imported");
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Richard Hendriks");
  await expect(page.locator("#experience")).toContainText("CEO/President at Pied Piper");

  // Export, import, export: the same document.
  await page.goto("/admin/profile");
  await hydrated(page);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export JSON Resume" }).click();
  const exported = readFileSync((await (await download).path())!);
  await importFile("resume.json", exported);
  await page
    .getByRole("form", { name: "Confirm import" })
    .getByRole("button", {
      name: "Confirm import",
    })
    .click();
  await expect(importForm.getByRole("status")).toContainText("Imported");
  const again = await (await page.request.get("/resume.json")).text();
  expect(again).toBe(exported.toString());
});

test("strangers and other sites change nothing", async ({ page, playwright }) => {
  const before = await (await page.request.get("/resume.json")).text();
  const anonymous = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
  });
  for (const intent of [
    "save-profile",
    "add-experience",
    "save-experience",
    "delete-experience",
    "up-education",
    "upload-photo",
    "remove-photo",
    "upload-cv",
    "import-confirm",
  ]) {
    const response = await anonymous.post("/admin/profile", {
      form: { intent, id: "1", name: "Mallory", document: "{}" },
      maxRedirects: 0,
    });
    expect(response.status(), intent).toBe(401);
  }
  await signInPage(page, "/admin/profile");
  const crossSite = await page.request.post("/admin/profile", {
    form: { intent: "save-profile", name: "Mallory" },
    headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
  });
  expect(crossSite.status()).toBe(403);
  expect(await (await page.request.get("/resume.json")).text()).toBe(before);
  await anonymous.dispose();
});

test("each section's own route is the owner's alone; the résumé's takes a whole document", async ({
  page,
  playwright,
}) => {
  const before = await (await page.request.get("/resume.json")).text();
  const anonymous = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
  });
  for (const section of ["photo", "cv", "experience", "education", "resume"]) {
    const path = `/admin/profile/${section}`;
    const read = await anonymous.get(path, { maxRedirects: 0 });
    expect(read.status(), path).toBe(302);
    const write = await anonymous.post(path, {
      form: { intent: "remove", id: "1", document: "{}" },
      maxRedirects: 0,
    });
    expect(write.status(), path).toBe(401);
  }
  await anonymous.dispose();

  await signInPage(page, "/admin/profile");
  // The confirmation sends the checked document back form-encoded, which may pass a form's
  // 256 KB: this one is read, and refused as a résumé (413 would be the body refused unread).
  const large = await page.request.post("/admin/profile/resume", {
    form: {
      intent: "confirm",
      document: JSON.stringify({ basics: { name: "Mallory", summary: "x".repeat(300_000) } }),
    },
  });
  expect(large.status()).toBe(400);
  expect(await large.text()).toContain("basics.summary");
  expect(await (await page.request.get("/resume.json")).text()).toBe(before);
});

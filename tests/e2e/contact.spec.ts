import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { signInPage } from "./owner";

test.describe.configure({ mode: "serial" });

type Stored = { id: number; name: string; email: string; message: string; status: string };
const stored = async (page: Page): Promise<Stored[]> =>
  ((await (await page.request.get("/__test/contact")).json()) as { messages: Stored[] }).messages;

test.beforeEach(async ({ request }) => {
  expect((await request.delete("/__test/contact")).status()).toBe(204);
});

async function fill(page: Page, fields: { name?: string; email?: string; message?: string }) {
  await page.getByLabel("Your Name").fill(fields.name ?? "");
  await page.getByLabel("Your Email").fill(fields.email ?? "");
  await page.getByLabel("Your Message").fill(fields.message ?? "");
}

const send = (page: Page) => page.getByRole("button", { name: "Send Message" }).click();
const toast = (page: Page) => page.getByTestId("toast");

test("checks in the original's order, with its exact texts, and sends nothing invalid", async ({
  page,
}) => {
  let sent = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/contact")) sent++;
  });
  await page.goto("/");
  for (const [fields, text] of [
    [{}, "Por favor, completa todos los campos"],
    [{ name: "Ana", email: "not-an-email", message: "  " }, "Por favor, completa todos los campos"],
    [{ name: "Ana", email: "ana@example", message: "Hola" }, "Por favor, ingresa un email válido"],
    [
      { name: "Ana", email: "ana @example.com", message: "Hola" },
      "Por favor, ingresa un email válido",
    ],
  ] as const) {
    await fill(page, fields);
    await send(page);
    await expect(toast(page)).toContainText("Error");
    await expect(toast(page)).toContainText(text);
    await page.getByRole("button", { name: "Close notification" }).click();
    await expect(toast(page)).toHaveCount(0);
  }
  expect(sent).toBe(0);
  expect(await stored(page)).toEqual([]);
});

test("while sending the button is disabled with a spinner; success clears the form and stores the message", async ({
  page,
}) => {
  await page.goto("/");
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/contact", async (route) => {
    await released;
    await route.continue();
  });
  await fill(page, { name: "Ana", email: " ana@example.com ", message: "Hola\nsegunda línea" });
  await send(page);
  const button = page.getByRole("button", { name: "Enviando..." });
  await expect(button).toBeDisabled();
  await expect(button.getByTestId("spinner")).toBeVisible();
  release();
  await expect(toast(page)).toContainText("¡Éxito!");
  await expect(toast(page)).toContainText("¡Mensaje enviado exitosamente! Te responderé pronto.");
  await expect(page.getByRole("button", { name: "Send Message" })).toBeEnabled();
  await expect(page.getByLabel("Your Name")).toHaveValue("");
  await expect(page.getByLabel("Your Email")).toHaveValue("");
  await expect(page.getByLabel("Your Message")).toHaveValue("");
  expect(await stored(page)).toMatchObject([
    { name: "Ana", email: "ana@example.com", message: "Hola\nsegunda línea", status: "pending" },
  ]);
});

test("the contact toast hides after 1500 ms and closes 300 ms later", async ({ page }) => {
  await page.goto("/");
  await fill(page, {});
  await page.evaluate(() => {
    const w = window as unknown as { t: Record<string, number> };
    w.t = {};
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="toast"]');
      const now = performance.now();
      if (el && w.t.shown === undefined) w.t.shown = now;
      if (el?.getAttribute("data-state") === "closed" && w.t.hidden === undefined) w.t.hidden = now;
      if (!el && w.t.hidden !== undefined && w.t.gone === undefined) w.t.gone = now;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await send(page);
  await expect(toast(page)).toBeVisible();
  await expect(toast(page)).toHaveCount(0, { timeout: 5000 });
  const t = await page.evaluate(() => (window as unknown as { t: Record<string, number> }).t);
  expect(t.hidden! - t.shown!).toBeGreaterThanOrEqual(1500 - 20);
  expect(t.hidden! - t.shown!).toBeLessThan(1500 + 700);
  expect(t.gone! - t.hidden!).toBeGreaterThanOrEqual(300 - 20);
  expect(t.gone! - t.hidden!).toBeLessThan(300 + 700);
});

test.describe("a failed send", () => {
  test.use({ allowConsoleErrors: /status of 500|Error sending the contact message/ });
  test("shows the error toast and keeps the fields", async ({ page }) => {
    await page.goto("/");
    await page.route("**/api/contact", (route) => route.fulfill({ status: 500, body: "down" }));
    await fill(page, { name: "Ana", email: "ana@example.com", message: "Keep me" });
    await send(page);
    await expect(toast(page)).toContainText("Error");
    await expect(toast(page)).toContainText(
      "Error al enviar el mensaje. Por favor, intenta nuevamente.",
    );
    await expect(page.getByLabel("Your Message")).toHaveValue("Keep me");
    await expect(page.getByLabel("Your Name")).toHaveValue("Ana");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, allowConsoleErrors: /status of 400/ });
  test("the form posts and the page answers with the same texts", async ({ page }) => {
    await page.goto("/");
    await fill(page, { name: "Ana", email: "bad", message: "Hola" });
    await send(page);
    await expect(page.getByTestId("toast")).toContainText("Por favor, ingresa un email válido");
    await expect(page.getByLabel("Your Name")).toHaveValue("Ana");
    await fill(page, { name: "Ana", email: "ana@example.com", message: "Sin JavaScript" });
    await send(page);
    await expect(page.getByTestId("toast")).toContainText(
      "¡Mensaje enviado exitosamente! Te responderé pronto.",
    );
    await expect(page.getByLabel("Your Message")).toHaveValue("");
    expect((await stored(page)).map((m) => m.message)).toEqual(["Sin JavaScript"]);
  });
});

test("the honeypot: the visitor sees success, the message is stored as spam", async ({
  page,
  request,
}) => {
  await page.goto("/");
  // Off-screen, out of the tab order and out of the accessibility tree.
  const honeypot = page.locator('input[name="website"]');
  expect((await honeypot.boundingBox())!.x).toBeLessThan(0);
  await expect(honeypot).toHaveAttribute("tabindex", "-1");
  await expect(page.getByRole("textbox", { name: "Website" })).toHaveCount(0);
  const response = await request.post("/api/contact", {
    form: {
      name: "Bot",
      email: "bot@example.com",
      message: "Buy now",
      website: "https://spam.example",
    },
  });
  expect(response.status()).toBe(200);
  expect((await response.json()).ok).toBe(true);
  expect(await stored(page)).toMatchObject([{ name: "Bot", status: "spam" }]);
});

test("the server checks bounds too", async ({ request }) => {
  const response = await request.post("/api/contact", {
    form: { name: "Ana", email: "ana@example.com", message: "m".repeat(10_001) },
  });
  expect(response.status()).toBe(400);
  expect((await response.json()).message).toBe("The message can be at most 10,000 characters.");
});

test.describe("the rate limit", () => {
  test.use({ allowConsoleErrors: /status of 429|Error sending the contact message/ });
  test("after 5 messages in 10 minutes the next gets 429 and the error toast", async ({
    page,
    request,
  }) => {
    for (let i = 1; i <= 5; i++) {
      const ok = await request.post("/api/contact", {
        form: { name: "Ana", email: "ana@example.com", message: `m${i}` },
      });
      expect(ok.status()).toBe(200);
    }
    await page.goto("/");
    await fill(page, { name: "Ana", email: "ana@example.com", message: "sixth" });
    await send(page);
    await expect(toast(page)).toContainText(
      "Error al enviar el mensaje. Por favor, intenta nuevamente.",
    );
    await expect(page.getByLabel("Your Message")).toHaveValue("sixth");
    expect(await stored(page)).toHaveLength(5);
  });
});

test("the owner's inbox lists messages newest first with their state, and retries failed ones", async ({
  page,
  request,
}) => {
  for (const [name, extra] of [
    ["First", {}],
    ["Second", {}],
    ["Spammer", { website: "x" }],
  ] as const) {
    await request.post("/api/contact", {
      form: { name, email: `${name.toLowerCase()}@example.com`, message: `From ${name}`, ...extra },
    });
  }
  const [first] = await stored(page);
  expect((await request.patch("/__test/contact", { data: { id: first!.id } })).status()).toBe(204);

  await page.goto("/admin/messages");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fmessages/);
  await signInPage(page, "/admin/messages");
  await expect(page.getByRole("banner").getByRole("link", { name: "Messages" })).toHaveAttribute(
    "href",
    "/admin/messages",
  );
  const items = page.getByTestId("messages").getByRole("listitem");
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText("Spammer");
  await expect(items.nth(0)).toContainText("spam");
  await expect(items.nth(1)).toContainText("Second");
  await expect(items.nth(1)).toContainText("off"); // no mail transport on this server
  await expect(items.nth(2)).toContainText("From First");
  await expect(items.nth(2)).toContainText("failed");
  await expect(items.nth(2).getByRole("link", { name: "first@example.com" })).toHaveAttribute(
    "href",
    "mailto:first@example.com",
  );
  await expect(items.nth(1).getByRole("button", { name: "Retry" })).toHaveCount(0);
  await items.nth(2).getByRole("button", { name: "Retry" }).click();
  await expect(items.nth(2)).toContainText("off");
  expect((await stored(page)).find((m) => m.id === first!.id)!.status).toBe("pending");
});

test.describe("the home page loads no framework", () => {
  test("the form is the site script's: fetched, checked and answered in the live region", async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto("/");
    await expect(page.locator("[data-theme-toggle]").first()).toHaveAttribute(
      "aria-pressed",
      /true|false/,
    );
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    const region = page.locator("[data-toast-region]");
    await expect(region).toHaveAttribute("aria-live", "polite");
    await fill(page, { name: "Ana", email: "ana@example.com", message: "Sin React" });
    await send(page);
    await expect(region.getByTestId("toast")).toContainText("¡Éxito!");
    await expect(region.getByTestId("toast")).toHaveAttribute("role", "status");
    await expect(page.getByLabel("Your Message")).toHaveValue("");
    expect((await stored(page)).map((m) => m.message)).toEqual(["Sin React"]);
    expect(scripts).toEqual([]);
  });

  test("after a client-side navigation from a page that hydrates, the form works the same", async ({
    page,
  }) => {
    await page.goto("/login");
    const documents: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents.push(r.url());
    });
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("button", { name: "Contact" })
      .click();
    await expect(page).toHaveURL(/\/#contact$/);
    await send(page);
    await expect(toast(page)).toContainText("Por favor, completa todos los campos");
    await page.getByRole("button", { name: "Close notification" }).click();
    await expect(toast(page)).toHaveCount(0);
    await fill(page, { name: "Ana", email: "ana@example.com", message: "Navegando" });
    await send(page);
    await expect(toast(page)).toContainText("¡Mensaje enviado exitosamente! Te responderé pronto.");
    expect((await stored(page)).map((m) => m.message)).toEqual(["Navegando"]);
    expect(documents).toEqual([]);
  });
});

test.describe("the home page answers a plain post", () => {
  test.use({ allowConsoleErrors: /status of 400/ });
  test("a toast the server answered a plain post with hides after 1500 ms and leaves 300 ms later", async ({
    page,
  }) => {
    await page.goto("/");
    await fill(page, { name: "Ana", email: "bad", message: "Hola" });
    // The answer's document records when its toast starts hiding and when it is gone.
    await page.addInitScript(() => {
      const w = window as unknown as { t: Record<string, number> };
      w.t = {};
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="toast"]');
        const now = performance.now();
        if (el && w.t.shown === undefined) w.t.shown = now;
        if (el?.getAttribute("data-state") === "closed" && w.t.hidden === undefined) {
          w.t.hidden = now;
        }
        if (!el && w.t.hidden !== undefined && w.t.gone === undefined) w.t.gone = now;
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    // A plain submission, as before the script attached: the page answers with the toast.
    await Promise.all([
      page.waitForURL(/\/\?index$/),
      page.locator("form[data-contact-form]").evaluate((form: HTMLFormElement) => form.submit()),
    ]);
    await expect(toast(page)).toContainText("Por favor, ingresa un email válido");
    await expect(page.getByLabel("Your Email")).toHaveValue("bad");
    await expect(toast(page)).toHaveCount(0, { timeout: 5000 });
    const t = await page.evaluate(() => (window as unknown as { t: Record<string, number> }).t);
    // Timed from the script's start, a little after the toast was parsed.
    expect(t.hidden! - t.shown!).toBeGreaterThanOrEqual(1500 - 20);
    expect(t.hidden! - t.shown!).toBeLessThan(1500 + 700);
    expect(t.gone! - t.hidden!).toBeGreaterThanOrEqual(300 - 20);
    expect(t.gone! - t.hidden!).toBeLessThan(300 + 700);
  });
});

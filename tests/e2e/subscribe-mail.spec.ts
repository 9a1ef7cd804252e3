import { once } from "node:events";
import { rmSync } from "node:fs";
import type { AddressInfo } from "node:net";

import { SMTPServer } from "smtp-server";

import { expect, test } from "./fixtures";
import { startServer, waitForHealth } from "./processes";

/** A server of this file's own, with mail going to a real SMTP peer on loopback. */
const PORT = Number(process.env.E2E_PORT_BASE ?? 3210) + 30;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = ".test-output/e2e-subscribe-mail-data";

test.describe("the confirmation mail, end to end", () => {
  test.describe.configure({ mode: "serial", timeout: 90_000 });
  test.use({ javaScriptEnabled: false, allowConsoleErrors: /status of 400/ });

  const mails: string[] = [];
  let smtp: SMTPServer;
  let server: ReturnType<typeof startServer>;

  test.beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        let raw = "";
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
        stream.on("end", () => {
          mails.push(raw);
          callback();
        });
      },
    });
    smtp.listen(0, "127.0.0.1");
    await once(smtp.server, "listening");
    rmSync(DATA_DIR, { recursive: true, force: true });
    server = startServer({
      PORT: String(PORT),
      DATA_DIR,
      SITE_URL: BASE,
      SEED_DEMO: "false",
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      MAIL_FROM: "blog@example.dev",
    });
    await waitForHealth(BASE, server.child);
  });

  test.afterAll(async () => {
    server.child.kill("SIGTERM");
    await server.exited;
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    rmSync(DATA_DIR, { recursive: true, force: true });
  });

  test("subscribe without JavaScript, get the mail, follow its link, confirm", async ({ page }) => {
    await page.goto(`${BASE}/blog`);
    const form = page.getByTestId("subscribe");
    await form.getByLabel("Your e-mail").fill("reader@example.com");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();

    // The job worker sends it within its poll (15 s).
    await expect.poll(() => mails.length, { timeout: 30_000 }).toBe(1);
    const text = mails[0]!.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    expect(text).toMatch(/^To: reader@example.com\r?$/m);
    expect(text).toMatch(/^Subject: Confirm your subscription\r?$/m);
    const link = new RegExp(`${BASE}/subscribe/confirm\\?[^\\s"<]+`).exec(text)![0];

    // Opening the link changes nothing until the button is pressed.
    await page.goto(link);
    await expect(page.getByText("Press the button to get new posts by e-mail.")).toBeVisible();
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "You are subscribed. New posts will come to your inbox.",
    );
    await page.goto(link);
    await expect(page.getByRole("status")).toHaveText(
      "You are subscribed. New posts will come to your inbox.",
    );

    // A tampered link gets a clear page.
    const response = await page.goto(link.replace(/t=[^&]+/, "t=forged"));
    expect(response!.status()).toBe(400);
    await expect(page.getByRole("status")).toHaveText(
      "This confirmation link is not valid. Subscribe again to get a new one.",
    );
  });
});

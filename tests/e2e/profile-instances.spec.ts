import { expect, test } from "@playwright/test";

import { E2E_OWNER_PASSWORD } from "../../playwright.config";
import { freshDatabase, serveOn } from "./processes";

/**
 * The profile lives in the database: two servers on one PostgreSQL show one owner's edit at
 * once (each drops its cached home page on the database's notice), and a restart keeps it.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
/** Two ports of their own, set apart with the other servers' (playwright.config.ts). */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3210);
const [FIRST_PORT, SECOND_PORT] = [PORT_BASE + 21, PORT_BASE + 22];

test.describe("the profile across server processes (PostgreSQL)", () => {
  test.skip(!TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: these tests need PostgreSQL");
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  let database: Awaited<ReturnType<typeof freshDatabase>>;
  test.beforeAll(async () => {
    database = await freshDatabase("profile");
  });
  test.afterAll(() => database.drop());

  const serve = (port: number) => serveOn(port, database.url);

  test("an edit on one instance shows on the other, and after a restart", async ({ browser }) => {
    const one = await serve(FIRST_PORT);
    const two = await serve(SECOND_PORT);
    try {
      // A new PostgreSQL database starts with the configured profile and empty timelines.
      const home = async (base: string) => (await fetch(`${base}/`)).text();
      expect(await home(two.base)).toContain("Alex Byrne");
      expect(await home(two.base)).toContain("Alex Byrne"); // now cached on two

      const page = await (await browser.newContext({ baseURL: one.base })).newPage();
      await page.goto("/login?redirectTo=%2Fadmin%2Fprofile");
      await page.getByLabel("Password").fill(E2E_OWNER_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/admin\/profile$/);
      const add = page.getByRole("form", { name: "Add experience" });
      await add.getByLabel("Title").fill("Principal Engineer");
      await add.getByLabel("Company").fill("Spire Systems");
      await add.getByLabel("From").fill("2024-01");
      await add.getByLabel("Current job").check();
      await add.getByRole("button", { name: "Add experience" }).click();
      await expect(add.getByRole("status")).toHaveText("Added.");
      const form = page.getByRole("form", { name: "Profile" });
      await form.getByLabel("Name", { exact: true }).fill("Aoife Byrne");
      await form.getByRole("button", { name: "Save" }).click();
      await expect(form.getByRole("status")).toHaveText("Saved.");

      await expect
        .poll(async () => {
          const html = await home(two.base);
          return (
            html.includes("Aoife Byrne") && html.includes("Principal Engineer at Spire Systems")
          );
        })
        .toBe(true);

      two.server.child.kill("SIGTERM");
      await two.server.exited;
      const again = await serve(SECOND_PORT);
      try {
        const html = await home(again.base);
        expect(html).toContain("Aoife Byrne");
        expect(html).toContain("Jan 2024 - Present");
      } finally {
        again.server.child.kill("SIGTERM");
        await again.server.exited;
      }
    } finally {
      one.server.child.kill("SIGTERM");
      two.server.child.kill("SIGTERM");
      await one.server.exited;
    }
  });
});

import { expect, test } from "./fixtures";
import { signInPage } from "./owner";
import { E2E_OWNER_PASSWORD } from "../../playwright.config";

// Owner pages (app/route-policy.ts `access`) as a browser meets them: a client navigation asks
// the server for the page's data, and the owner's gate must answer it with a redirect the
// browser's router follows, to the sign-in form and back to the page itself.

test("a client navigation to an owner page, once the session is gone, signs in and comes back", async ({
  page,
}) => {
  // The home page loads React, so the header's links navigate in the browser.
  await signInPage(page, "/");
  await page.context().clearCookies();
  await page.getByRole("banner").getByRole("link", { name: "Posts" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fposts$/);

  await page.getByLabel("Password").fill(E2E_OWNER_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  await expect(page.getByRole("heading", { level: 1, name: "Posts" })).toBeVisible();
});

import type { APIRequestContext, Page } from "@playwright/test";

import { E2E_OWNER_PASSWORD } from "../../playwright.config";

/** Signs the page's browser context in through the real form. */
export async function signInPage(page: Page, redirectTo = "/") {
  await page.goto(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("Password").fill(E2E_OWNER_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === redirectTo.split("?")[0]);
}

/** Signs an API request context in (its cookie jar keeps the session). */
export async function signInRequest(request: APIRequestContext) {
  const response = await request.post("/login", {
    form: { password: E2E_OWNER_PASSWORD, redirectTo: "/" },
    maxRedirects: 0,
  });
  if (response.status() !== 302) throw new Error(`sign-in answered ${response.status()}`);
}

export type StoredPost = {
  id: number;
  title: string;
  content: string;
  contentEn: string | null;
  status: string;
};

export async function storedPosts(request: APIRequestContext): Promise<StoredPost[]> {
  return ((await (await request.get("/__test/posts")).json()) as { posts: StoredPost[] }).posts;
}

/** Accepts the next alert and returns its text. */
export function nextAlert(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.once("dialog", async (dialog) => {
      const text = dialog.message();
      await dialog.accept();
      resolve(text);
    });
  });
}

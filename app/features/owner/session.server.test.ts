import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";

import { appContext } from "~/context";

import type { Database } from "../../../database/db.server";
import { parseEnv } from "~/lib/env.server";
import { safeRedirect, sessionCookie } from "./session.server";

/** A request's context as server/middleware/react-router.ts makes it: `secure` is its finding about https. */
function contextFor(siteUrl: string, secure = siteUrl.startsWith("https:")) {
  const context = new RouterContextProvider();
  context.set(appContext, {
    db: undefined as unknown as Database,
    env: parseEnv({ SITE_URL: siteUrl }),
    clientAddress: "127.0.0.1",
    secure,
  });
  return context;
}

describe("the session cookie", () => {
  it("over https is __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/, 30 days", async () => {
    const header = await sessionCookie(contextFor("https://www.example.com")).serialize("id");
    expect(header).toMatch(/^__Host-session=/);
    expect(header).toContain("; Secure");
    expect(header).toContain("; HttpOnly");
    expect(header).toContain("; SameSite=Lax");
    expect(header).toContain("; Path=/");
    expect(header).toContain("; Max-Age=2592000");
    expect(header).not.toContain("Domain=");
  });
  it("follows the request, not the site's URL: https behind a trusted proxy is Secure", async () => {
    const behindProxy = await sessionCookie(contextFor("http://localhost:3000", true)).serialize(
      "id",
    );
    expect(behindProxy).toMatch(/^__Host-session=/);
    expect(behindProxy).toContain("; Secure");
  });
  it("over plain http (local use) is neither prefixed nor Secure", async () => {
    const header = await sessionCookie(contextFor("http://localhost:3000")).serialize("id");
    expect(header).toMatch(/^session=/);
    expect(header).not.toContain("Secure");
  });
});

describe("safeRedirect", () => {
  it("keeps paths on this site", () => {
    expect(safeRedirect("/blog/new")).toBe("/blog/new");
    expect(safeRedirect("/blog?page=2")).toBe("/blog?page=2");
    expect(safeRedirect("/blog#top")).toBe("/blog#top");
  });
  it("encodes what a Location header cannot carry", () => {
    expect(safeRedirect("/blog/ñ?q=é")).toBe("/blog/%C3%B1?q=%C3%A9");
    expect(safeRedirect("/blog\r\nSet-Cookie: x=1")).toBe("/blogSet-Cookie:%20x=1");
    expect(safeRedirect("/blog\u0000x")).toBe("/blog%00x");
  });
  it.each([
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example",
    "javascript:alert(1)",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/.//evil.example",
    "",
    null,
    undefined,
  ])("sends %s home", (target) => {
    expect(safeRedirect(target)).toBe("/");
  });
});

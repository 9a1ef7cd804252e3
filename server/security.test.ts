import { createHash } from "node:crypto";

import { Hono } from "hono";
import { describe, expect, it } from "vitest";

import { INLINE_SCRIPTS } from "../app/features/site";
import { resolveAppRoute } from "../tests/app-routes";
import { contentSecurityPolicy, nonceFor } from "./security";

describe("the CSP nonce", () => {
  it("is made only for a page that may load React, fresh each time", () => {
    for (const path of ["/", "/blog", "/blog/a-post", "/rss.xml", "/subscribe", "/no/such/page"]) {
      expect(nonceFor(resolveAppRoute(path)), path).toBeUndefined();
    }
    const nonces = ["/login", "/admin/messages", "/admin/messages"].map((path) =>
      nonceFor(resolveAppRoute(path)),
    );
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(new Set(nonces).size).toBe(3);
  });
});

describe("the Content-Security-Policy", () => {
  const site = (options: { https: boolean; development: boolean }) => {
    const app = new Hono<{ Variables: { nonce?: string } }>();
    app.use(contentSecurityPolicy(options));
    app.get("/owner", (c) => {
      c.set("nonce", "bm9uY2Utb2YtdGhpcy1vbmU=");
      return c.html("<script nonce=...></script>");
    });
    app.get("/public", (c) => c.html("<script></script>"));
    app.get("/revalidated", (c) => c.body(null, 304));
    return app;
  };
  const policyOf = async (app: ReturnType<typeof site>, path: string) =>
    (await app.request(path)).headers.get("content-security-policy");
  const sha256 = (text: string) => createHash("sha256").update(text).digest("base64");

  it("allows a page without a nonce exactly the site's inline scripts, by hash", async () => {
    const policy = await policyOf(site({ https: true, development: false }), "/public");
    const hashes = INLINE_SCRIPTS.map((script) => `'sha256-${sha256(script)}'`).join(" ");
    expect(policy).toContain(`script-src ${hashes} 'strict-dynamic' 'unsafe-inline' https:;`);
    expect(policy).not.toContain("nonce-");
    expect(policy).toContain("upgrade-insecure-requests");
  });

  it("names the render's nonce, and no hash, when there is one", async () => {
    const policy = await policyOf(site({ https: false, development: false }), "/owner");
    expect(policy).toContain(
      "script-src 'nonce-bm9uY2Utb2YtdGhpcy1vbmU=' 'strict-dynamic' 'unsafe-inline' https:;",
    );
    expect(policy).not.toContain("sha256-");
    expect(policy).not.toContain("upgrade-insecure-requests");
  });

  it("sends none on a 304, nor in development", async () => {
    expect(await policyOf(site({ https: true, development: false }), "/revalidated")).toBeNull();
    expect(await policyOf(site({ https: true, development: true }), "/public")).toBeNull();
  });
});

import { createHash } from "node:crypto";

import type { APIResponse } from "@playwright/test";

import { expect, test } from "./fixtures";
import { signInRequest } from "./owner";

/**
 * Response headers per route family (docs/product.md#robustness): what every response
 * carries, the CSP on documents (scripts allowed by hash on pages without React, by a fresh
 * nonce on pages that hydrate), and which responses no cache may keep.
 */

const EVERY_RESPONSE = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "x-frame-options": "DENY",
};

const CSP_DIRECTIVES = [
  /(?:^|; )script-src (?:'nonce-[A-Za-z0-9+/=]{22,}'|'sha256-[A-Za-z0-9+/]{43}='(?: 'sha256-[A-Za-z0-9+/]{43}=')*) 'strict-dynamic'/,
  /(?:^|; )object-src 'none'(?:;|$)/,
  /(?:^|; )base-uri 'none'(?:;|$)/,
  /(?:^|; )frame-ancestors 'none'(?:;|$)/,
  /(?:^|; )form-action 'self'(?:;|$)/,
  /(?:^|; )default-src 'self'(?:;|$)/,
];

function expectSecurityHeaders(response: APIResponse) {
  const headers = response.headers();
  for (const [name, value] of Object.entries(EVERY_RESPONSE)) {
    expect(headers[name], `${name} on ${response.url()}`).toBe(value);
  }
  const permissions = headers["permissions-policy"] ?? "";
  for (const feature of ["camera", "microphone", "geolocation", "payment", "usb"]) {
    expect(permissions, `Permissions-Policy on ${response.url()}`).toContain(`${feature}=()`);
  }
  const csp = headers["content-security-policy"] ?? "";
  for (const directive of CSP_DIRECTIVES)
    expect(csp, `CSP on ${response.url()}`).toMatch(directive);
  expect(headers["content-security-policy-report-only"]).toBeUndefined();
  // Plain http here: HSTS only over https (server/http.test.ts).
  expect(headers["strict-transport-security"]).toBeUndefined();
  expect(headers["x-powered-by"]).toBeUndefined();
  expect(headers["server"]).toBeUndefined();
  expect(headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
}

const nonceOf = (response: APIResponse) =>
  /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
const hashesOf = (response: APIResponse) =>
  [...(response.headers()["content-security-policy"] ?? "").matchAll(/'(sha256-[^']+)'/g)].map(
    ([, hash]) => hash!,
  );
/** The scripts a page would run: every <script> but data blocks (JSON-LD), tag and content. */
const runnableScripts = (html: string) =>
  [...html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)]
    .filter(([, tag]) => !/type="application\/ld\+json"/.test(tag!))
    .map(([, tag, content]) => ({ tag: tag!, content: content! }));
const sha256 = (text: string) => `sha256-${createHash("sha256").update(text).digest("base64")}`;

test.describe("public pages", () => {
  for (const path of ["/", "/blog", "/blog?page=2", "/blog/1"]) {
    test(`${path}: security headers, each script allowed by its hash, the same bytes for every visitor`, async ({
      request,
    }) => {
      const first = await request.get(path);
      const second = await request.get(path);
      for (const response of [first, second]) {
        expect(response.status()).toBe(200);
        expectSecurityHeaders(response);
        expect(response.headers()["cache-control"]).toBe(
          "public, max-age=0, s-maxage=60, stale-while-revalidate=600",
        );
        // Nothing in a public page is one response's: no nonce, in the policy or the page.
        expect(nonceOf(response)).toBeUndefined();
        const html = await response.text();
        expect(html).not.toMatch(/\snonce=/);
        const scripts = runnableScripts(html);
        // The theme's and the site script, inline; no script file.
        expect(scripts).toHaveLength(2);
        for (const { tag } of scripts) expect(tag).toBe("<script>");
        // The policy allows exactly these two, by the hash of their text.
        expect(hashesOf(response).sort()).toEqual(
          scripts.map(({ content }) => sha256(content)).sort(),
        );
      }
      expect(await second.body()).toEqual(await first.body());
      expect(second.headers()["x-page-cache"]).toBe("hit");
    });
  }

  test("/login: a fresh nonce on every script, in no hash", async ({ request }) => {
    const first = await request.get("/login");
    const second = await request.get("/login");
    for (const response of [first, second]) {
      expect(response.status()).toBe(200);
      expectSecurityHeaders(response);
      expect(hashesOf(response)).toEqual([]);
      const nonce = nonceOf(response);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      const html = await response.text();
      const scripts = runnableScripts(html);
      // The theme's, the router's context and the module that loads React.
      expect(scripts.length).toBeGreaterThanOrEqual(3);
      for (const { tag } of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(nonceOf(first)).not.toBe(nonceOf(second));
  });

  test("a 304 keeps the stored CSP: it carries no policy of its own", async ({ request }) => {
    const first = await request.get("/blog");
    const etag = first.headers()["etag"]!;
    expect(etag).toMatch(/^W\/"/);
    const revalidated = await request.get("/blog", { headers: { "If-None-Match": etag } });
    expect(revalidated.status()).toBe(304);
    expect(revalidated.headers()["content-security-policy"]).toBeUndefined();
    expect(revalidated.headers()["x-content-type-options"]).toBe("nosniff");
  });

  test("the 404 page carries the same headers and is not cached", async ({ request }) => {
    const response = await request.get("/no-such-page");
    expect(response.status()).toBe(404);
    expectSecurityHeaders(response);
    expect(response.headers()["x-page-cache"]).toBeUndefined();
  });
});

test.describe("feeds and files", () => {
  for (const path of ["/rss.xml", "/sitemap.xml", "/robots.txt", "/favicon.svg"]) {
    test(`${path}: security headers`, async ({ request }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      expectSecurityHeaders(response);
    });
  }

  test("hashed assets: security headers and an immutable year", async ({ request }) => {
    // Sign-in hydrates, so its document names script files; public pages name none.
    const html = await (await request.get("/login")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const response = await request.get(asset!);
    expect(response.status()).toBe(200);
    expectSecurityHeaders(response);
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  test("/healthz: security headers, never cached", async ({ request }) => {
    const response = await request.get("/healthz");
    expectSecurityHeaders(response);
    expect(response.headers()["cache-control"]).toBe("no-store");
  });
});

test.describe("owner pages and cookies", () => {
  test("signing in sets the cookie on a response no cache keeps", async ({ request }) => {
    const response = await request.post("/login", {
      form: { password: "e2e-owner-password", redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["set-cookie"]).toMatch(/^session=.*HttpOnly/i);
    expect(response.headers()["cache-control"]).toBe("private, no-store");
    expectSecurityHeaders(response);
  });

  test("the sign-in page is never stored", async ({ request }) => {
    const response = await request.get("/login");
    expect(response.status()).toBe(200);
    expectSecurityHeaders(response);
    expect(response.headers()["cache-control"]).toBe("private, no-store");
  });

  for (const path of ["/admin/messages", "/blog/new", "/blog/1/edit", "/", "/blog", "/blog/1"]) {
    test(`${path} for the signed-in owner: no-store, never from the page cache`, async ({
      request,
    }) => {
      await signInRequest(request);
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      expectSecurityHeaders(response);
      expect(response.headers()["cache-control"]).toBe("private, no-store");
      expect(response.headers()["x-page-cache"]).not.toBe("hit");
    });
  }

  test("the JSON API: security headers and no-store, on refusals too", async ({ request }) => {
    const response = await request.post("/api/posts", { data: { title: "x" } });
    expect(response.status()).toBe(401);
    expectSecurityHeaders(response);
    expect(response.headers()["cache-control"]).toBe("private, no-store");
  });
});

test.describe("bad input", () => {
  test("a body that is neither a form nor JSON gets 415 and says what to send", async ({
    request,
  }) => {
    const response = await request.post("/api/contact", {
      headers: { "Content-Type": "text/xml" },
      data: "<message/>",
    });
    expect(response.status()).toBe(415);
    expect((await response.json()).error).toMatch(/application\/x-www-form-urlencoded/);
    expectSecurityHeaders(response);
  });

  test("a form over 256 KB gets 413 unread", async ({ request }) => {
    const response = await request.post("/api/contact", {
      form: { name: "A", email: "a@example.com", message: "x".repeat(300 * 1024) },
    });
    expect(response.status()).toBe(413);
    expect((await response.json()).error).toMatch(/larger than 256 KB/);
  });

  test("a non-numeric post id is a 404, never a server error", async ({ request }) => {
    for (const id of ["abc", "1e3", "-1", "0x10", "%00", "1%20OR%201=1", "99999999999999999999"]) {
      const response = await request.get(`/blog/${id}`);
      expect(response.status(), id).toBe(404);
    }
  });
});

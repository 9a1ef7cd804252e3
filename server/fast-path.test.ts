import type { IncomingMessage, ServerResponse } from "node:http";

import { describe, expect, it } from "vitest";

import { freshNonce, serveCachedPage, SiteHeaders } from "./fast-path";
import { PageCache } from "./page-cache/store";

describe("freshNonce", () => {
  it("gives 16 random bytes in base64, never the same twice, across refills of its pool", () => {
    // 5,000 nonces draw the 1,024-nonce pool almost five times over.
    const nonces = Array.from({ length: 5000 }, freshNonce);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});

describe("serveCachedPage", () => {
  it("answers a cached page to a browser, never to an ActivityPub request (the actor answers those)", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    await cache.fill("/", async () => ({
      status: 200,
      headers: [["content-type", "text/html; charset=utf-8"]],
      parts: [Buffer.from("<html>home</html>")],
      etag: 'W/"home"',
      tags: [],
    }));
    const site = new SiteHeaders();
    site.take(new Response(null, { headers: { "x-content-type-options": "nosniff" } }));
    const ask = (accept: string) => {
      const written: { status?: number; headers?: string[] } = {};
      const req = { method: "GET", url: "/", headers: { accept } } as unknown as IncomingMessage;
      const res = {
        writeHead: (status: number, headers: string[]) =>
          Object.assign(written, { status, headers }),
        cork: () => {},
        write: () => true,
        end: () => {},
      } as unknown as ServerResponse;
      return { served: serveCachedPage(cache, site, req, res), written };
    };
    const browser = ask("text/html,application/xhtml+xml,*/*;q=0.8");
    expect(browser.served).toBe(true);
    expect(browser.written.headers).toContain("Vary");
    expect(browser.written.headers![browser.written.headers!.indexOf("Vary") + 1]).toContain(
      "Accept",
    );
    expect(ask("application/activity+json").served).toBe(false);
    expect(ask('application/ld+json; profile="https://www.w3.org/ns/activitystreams"').served).toBe(
      false,
    );
  });
});

import type { IncomingMessage, ServerResponse } from "node:http";

import { describe, expect, it } from "vitest";

import { serveCachedPage, SiteHeaders } from "./fast-path";
import { bodyOf } from "./page-cache/body";
import { PageCache } from "./page-cache/store";

describe("serveCachedPage", () => {
  it("answers a cached page to a browser, never to an ActivityPub request (the actor answers those)", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    await cache.fill("/", async () => ({
      status: 200,
      headers: [["content-type", "text/html; charset=utf-8"]],
      body: Buffer.from("<html>home</html>"),
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

  it("keeps each kind of answer's headers apart: https or not, gzip or not, 200 or 304", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    await cache.fill("/", async () => ({
      status: 200,
      headers: [["content-type", "text/html; charset=utf-8"]],
      body: Buffer.from("<html>home</html>".repeat(100)),
      etag: 'W/"home"',
      tags: [],
    }));
    const site = new SiteHeaders();
    site.take(new Response(null, { headers: { "x-content-type-options": "nosniff" } }));
    const answer = (headers: Record<string, string>, secure: boolean) => {
      const written: { status?: number; headers?: string[] } = {};
      const req = { method: "GET", url: "/", headers } as unknown as IncomingMessage;
      const res = {
        writeHead: (status: number, list: string[]) =>
          Object.assign(written, { status, headers: list }),
        end: () => {},
      } as unknown as ServerResponse;
      serveCachedPage(cache, site, req, res, true, () => secure);
      const names = written.headers!.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
      return { status: written.status, names };
    };
    // Each asked twice, in an order that would reuse a wrong kind's headers if they were mixed.
    for (let round = 0; round < 2; round++) {
      const https = answer({ "accept-encoding": "gzip" }, true);
      expect(https.names).toContain("strict-transport-security");
      expect(https.names).toContain("content-encoding");
      const http = answer({}, false);
      expect(http.names).not.toContain("strict-transport-security");
      expect(http.names).not.toContain("content-encoding");
      const notModified = answer({ "if-none-match": 'W/"home"' }, true);
      expect(notModified.status).toBe(304);
      expect(notModified.names).not.toContain("content-type");
      expect(notModified.names).toContain("strict-transport-security");
    }
  });

  it("sends the site's CSP and the stored body itself, and no CSP on a 304", async () => {
    const cache = new PageCache({ maxBytes: 1 << 20 });
    const { entry } = await cache.fill("/", async () => ({
      status: 200,
      headers: [["content-type", "text/html; charset=utf-8"]],
      body: Buffer.from("<html>home</html>".repeat(100)),
      etag: 'W/"home"',
      tags: [],
    }));
    const site = new SiteHeaders();
    const policy = "script-src 'sha256-abc' 'strict-dynamic'";
    site.take(new Response(null, { headers: { "content-security-policy": policy } }));
    const answer = (headers: Record<string, string>) => {
      const written: { status?: number; headers?: string[]; body?: unknown } = {};
      const req = { method: "GET", url: "/", headers } as unknown as IncomingMessage;
      const res = {
        writeHead: (status: number, list: string[]) =>
          Object.assign(written, { status, headers: list }),
        end: (body?: unknown) => Object.assign(written, { body }),
      } as unknown as ServerResponse;
      serveCachedPage(cache, site, req, res);
      const list = written.headers!;
      const value = (name: string) => {
        const at = list.findIndex((item, i) => i % 2 === 0 && item.toLowerCase() === name);
        return at === -1 ? undefined : list[at + 1];
      };
      return { status: written.status, body: written.body, value };
    };
    const gzip = answer({ "accept-encoding": "gzip" });
    expect(gzip.value("content-security-policy")).toBe(policy);
    expect(gzip.body).toBe(bodyOf(entry!, true));
    expect(gzip.value("content-length")).toBe(String(bodyOf(entry!, true).length));
    const plain = answer({});
    expect(plain.body).toBe(bodyOf(entry!, false));
    expect(plain.value("content-length")).toBe(String(bodyOf(entry!, false).length));
    const notModified = answer({ "if-none-match": 'W/"home"' });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeUndefined();
    expect(notModified.value("content-security-policy")).toBeUndefined();
    expect(notModified.value("content-length")).toBeUndefined();
  });
});

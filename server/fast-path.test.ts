import type { IncomingMessage, ServerResponse } from "node:http";

import { describe, expect, it } from "vitest";

import { serveCachedPage, SiteHeaders } from "./fast-path";
import { bodyOf } from "./page-cache/body";
import { PageCache } from "./page-cache/store";

/** A cache holding `/`, and site headers as the full app would have sent them. */
async function cachedHome(siteHeaders: Record<string, string>) {
  const cache = new PageCache({ maxBytes: 1 << 20 });
  const { entry } = await cache.fill("/", async () => ({
    status: 200,
    headers: [["content-type", "text/html; charset=utf-8"]],
    body: Buffer.from("<html>home</html>".repeat(100)),
    etag: 'W/"home"',
    tags: [],
  }));
  const site = new SiteHeaders();
  site.take(new Response(null, { headers: siteHeaders }));
  /** A GET of `/` with these headers: whether the fast path answered, and what it wrote. */
  const ask = (headers: Record<string, string> | string[], secure = false) => {
    const written: { status?: number; headers?: string[]; body?: unknown } = {};
    // As node:http gives them: names as the client spelt them, a repeated header twice.
    const rawHeaders = Array.isArray(headers) ? headers : Object.entries(headers).flat();
    const req = { method: "GET", url: "/", rawHeaders } as unknown as IncomingMessage;
    const res = {
      writeHead: (status: number, list: string[]) =>
        Object.assign(written, { status, headers: list }),
      end: (body?: unknown) => Object.assign(written, { body }),
    } as unknown as ServerResponse;
    const served = serveCachedPage(cache, site, req, res, true, () => secure);
    const list = written.headers ?? [];
    const names = list.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    const value = (name: string) => {
      const at = names.indexOf(name);
      return at === -1 ? undefined : list[2 * at + 1];
    };
    const rawNames = list.filter((_, i) => i % 2 === 0);
    return { served, status: written.status, body: written.body, names, rawNames, value };
  };
  return { entry: entry!, ask };
}

describe("serveCachedPage", () => {
  it("answers a cached page to a browser, never to an ActivityPub request (the actor answers those)", async () => {
    const { ask } = await cachedHome({ "x-content-type-options": "nosniff" });
    const browser = ask({ accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    expect(browser.served).toBe(true);
    expect(browser.value("vary")).toContain("Accept");
    expect(ask({ accept: "application/activity+json" }).served).toBe(false);
    expect(
      ask({ accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' })
        .served,
    ).toBe(false);
  });

  it("keeps each kind of answer's headers apart: https or not, gzip or not, 200 or 304", async () => {
    const { ask } = await cachedHome({ "x-content-type-options": "nosniff" });
    // Each asked twice, in an order that would reuse a wrong kind's headers if they were mixed.
    for (let round = 0; round < 2; round++) {
      const https = ask({ "accept-encoding": "gzip" }, true);
      expect(https.names).toContain("strict-transport-security");
      expect(https.names).toContain("content-encoding");
      const http = ask({}, false);
      expect(http.names).not.toContain("strict-transport-security");
      expect(http.names).not.toContain("content-encoding");
      const notModified = ask({ "if-none-match": 'W/"home"' }, true);
      expect(notModified.status).toBe(304);
      expect(notModified.names).not.toContain("content-type");
      expect(notModified.names).toContain("strict-transport-security");
    }
  });

  it("names its headers in lower case, each once, as the full app's Headers send them", async () => {
    const { ask } = await cachedHome({ "x-content-type-options": "nosniff" });
    for (const answer of [
      ask({ "accept-encoding": "gzip" }, true),
      ask({}),
      ask({ "if-none-match": 'W/"home"' }, true),
    ]) {
      expect(answer.rawNames.length).toBeGreaterThan(5);
      expect(answer.rawNames).toEqual(answer.names);
      expect(new Set(answer.rawNames).size).toBe(answer.rawNames.length);
    }
  });

  it("sends the site's CSP and the stored body itself, and no CSP on a 304", async () => {
    const policy = "script-src 'sha256-abc' 'strict-dynamic'";
    const { entry, ask } = await cachedHome({ "content-security-policy": policy });
    const gzip = ask({ "accept-encoding": "gzip" });
    expect(gzip.value("content-security-policy")).toBe(policy);
    expect(gzip.body).toBe(bodyOf(entry, true));
    expect(gzip.value("content-length")).toBe(String(bodyOf(entry, true).length));
    const plain = ask({});
    expect(plain.body).toBe(bodyOf(entry, false));
    expect(plain.value("content-length")).toBe(String(bodyOf(entry, false).length));
    const notModified = ask({ "if-none-match": 'W/"home"' });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeUndefined();
    expect(notModified.value("content-security-policy")).toBeUndefined();
    expect(notModified.value("content-length")).toBeUndefined();
  });

  it("reads the headers it needs whatever their case; a session cookie or one of them twice goes to the full app", async () => {
    const { entry, ask } = await cachedHome({ "x-content-type-options": "nosniff" });
    const mixed = ask(["HOST", "example.com", "Accept-ENCODING", "gzip", "If-None-Match", "x"]);
    expect(mixed.body).toBe(bodyOf(entry, true));
    expect(ask(["if-none-match", 'W/"home"']).status).toBe(304);
    expect(ask(["Cookie", "theme=dark"]).served).toBe(true);
    expect(ask(["Cookie", "theme=dark; session=abc"]).served).toBe(false);
    // node:http would join the two; the full app reads them as it does.
    expect(ask(["cookie", "theme=dark", "cookie", "session=abc"]).served).toBe(false);
    expect(ask(["accept-encoding", "br", "Accept-Encoding", "gzip"]).served).toBe(false);
    expect(ask(["Accept", "application/activity+json"]).served).toBe(false);
  });
});

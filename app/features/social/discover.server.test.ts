import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FetchRefused, setOutgoingFetchPolicy } from "~/lib/safe-fetch.server";

import { discoverEndpoint, endpointFromHtml, endpointFromLinkHeader } from "./discover.server";

/**
 * The discovery cases of the Webmention spec's test suite (webmention.rocks), served from
 * loopback: each path answers as one case does.
 */
let server: Server;
let base: string;

const html = (body: string, head = "") =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const CASES: Record<string, { headers?: Record<string, string>; body?: string }> = {
  "/header-absolute": { headers: { link: "<{base}/endpoint/1>; rel=webmention" } },
  "/header-relative": { headers: { link: "</endpoint/2>; rel=webmention" } },
  "/header-quoted": { headers: { link: '<endpoint/3>; rel="webmention"' } },
  "/header-multiple-rels": {
    headers: { link: '</endpoint/4>; rel="webmention somethingelse"' },
  },
  "/header-several-links": {
    headers: { link: '</style.css>; rel="stylesheet", </endpoint/5>; rel="webmention"' },
  },
  "/link-element": { body: html("", '<link rel="webmention" href="/endpoint/6">') },
  "/a-element": { body: html('<a rel="webmention" href="/endpoint/7">webmention</a>') },
  "/with-query": { body: html('<a rel="webmention" href="/endpoint/8?query=yes">w</a>') },
  "/multiple-rels-html": {
    body: html("", '<link rel="somethingelse webmention" href="/endpoint/9">'),
  },
  "/empty-href": { body: html("", '<link rel="webmention" href="">') },
  "/header-first": {
    headers: { link: "</endpoint/header>; rel=webmention" },
    body: html("", '<link rel="webmention" href="/endpoint/html">'),
  },
  "/document-order": {
    body: html(
      '<a rel="webmention" href="/endpoint/a-first">a</a>',
      '<link rel="webmention" href="/endpoint/link-first">',
    ),
  },
  "/in-comment": {
    body: html(
      '<!-- <a rel="webmention" href="/endpoint/wrong">x</a> --><a rel="webmention" href="/endpoint/right">x</a>',
    ),
  },
  "/rel-not-webmention": {
    body: html(
      '<a rel="not-webmention" href="/endpoint/wrong">x</a><a rel="webmention" href="/endpoint/10">x</a>',
    ),
  },
  "/none": { body: html("<p>No endpoint.</p>") },
  "/escaped": { body: html('<a rel="webmention" href="/endpoint/11?a=1&amp;b=2">x</a>') },
};

beforeAll(async () => {
  setOutgoingFetchPolicy({ allowPrivate: true });
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/redirect") {
      // The endpoint is relative to the page the redirect leads to.
      res.writeHead(302, { location: "/moved/page" });
      return res.end();
    }
    if (url.pathname === "/moved/page") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end(html('<a rel="webmention" href="endpoint/12">x</a>'));
    }
    const found = CASES[url.pathname];
    if (!found) {
      res.writeHead(404);
      return res.end();
    }
    const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" };
    for (const [name, value] of Object.entries(found.headers ?? {})) {
      headers[name] = value.replace("{base}", base);
    }
    res.writeHead(200, headers);
    res.end(found.body ?? html(""));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  setOutgoingFetchPolicy({ allowPrivate: false });
  await new Promise((resolve) => server.close(resolve));
});

describe("Webmention endpoint discovery", () => {
  it.each([
    ["/header-absolute", "/endpoint/1"],
    ["/header-relative", "/endpoint/2"],
    ["/header-quoted", "/endpoint/3"],
    ["/header-multiple-rels", "/endpoint/4"],
    ["/header-several-links", "/endpoint/5"],
    ["/link-element", "/endpoint/6"],
    ["/a-element", "/endpoint/7"],
    ["/with-query", "/endpoint/8?query=yes"],
    ["/multiple-rels-html", "/endpoint/9"],
    ["/empty-href", "/empty-href"],
    ["/header-first", "/endpoint/header"],
    ["/document-order", "/endpoint/link-first"],
    ["/in-comment", "/endpoint/right"],
    ["/rel-not-webmention", "/endpoint/10"],
    ["/escaped", "/endpoint/11?a=1&b=2"],
    ["/redirect", "/moved/endpoint/12"],
  ])("finds the endpoint of %s", async (path, endpoint) => {
    expect(await discoverEndpoint(`${base}${path}`)).toBe(`${base}${endpoint}`);
  });

  it("finds none on a page without one, or a page that is not there", async () => {
    expect(await discoverEndpoint(`${base}/none`)).toBeNull();
    expect(await discoverEndpoint(`${base}/missing`)).toBeNull();
  });

  it("refuses loopback targets unless private addresses are allowed", async () => {
    setOutgoingFetchPolicy({ allowPrivate: false });
    try {
      await expect(discoverEndpoint(`${base}/link-element`)).rejects.toBeInstanceOf(FetchRefused);
    } finally {
      setOutgoingFetchPolicy({ allowPrivate: true });
    }
  });

  it("reads Link headers and markup as the spec says", () => {
    const page = "https://example.com/post?x=1";
    expect(endpointFromLinkHeader('<https://a.example/wm>; rel="other"', page)).toBeNull();
    expect(endpointFromLinkHeader("<../wm>; rel=webmention", "https://example.com/a/b")).toBe(
      "https://example.com/wm",
    );
    expect(endpointFromHtml("<a href='/wm' rel='webmention'>x</a>", page)).toBe(
      "https://example.com/wm",
    );
    expect(endpointFromHtml('<link rel="webmention" href="">', page)).toBe(page);
    expect(endpointFromHtml('<a href="/wm">x</a>', page)).toBeNull();
  });
});

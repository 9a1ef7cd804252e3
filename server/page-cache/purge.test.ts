import { createHmac } from "node:crypto";

import { describe, expect, it } from "vitest";

import { SECOND_MS } from "../../app/lib/format";
import { CDN_PURGE } from "../../app/lib/limits";
import { appRouteRecords } from "../../tests/app-routes";
import { purgeBodyOf, purgeTargetsOf, signPurge, verifyPurge } from "./purge";

const SITE = "https://example.com";
/** The app's routes as a build lists them: the feeds, the sitemap and the résumé have no page. */
const targets = purgeTargetsOf(
  appRouteRecords().map((r) => ({
    ...r,
    module: /\.(xml|json|txt)$/.test(r.path ?? "") ? {} : { default: () => null },
  })),
);
const urls = (...paths: string[]) => ({ urls: paths.map((p) => `${SITE}${p}`).sort() });

describe("the URLs a change makes stale", () => {
  it("are the public routes of the route policy, with their full paths", () => {
    expect(targets.map((t) => t.path).sort()).toEqual([
      "/",
      "/atom.xml",
      "/blog",
      "/blog/:slug",
      "/blog/tags",
      "/blog/tags/:tag",
      "/blog/tags/:tag/atom.xml",
      "/blog/tags/:tag/feed.json",
      "/blog/tags/:tag/rss.xml",
      "/feed.json",
      "/resume.json",
      "/robots.txt",
      "/rss.xml",
      "/sitemap.xml",
    ]);
  });

  it("name a post's pages by every slug it had, its tags' pages and feeds, and the lists", () => {
    const body = purgeBodyOf(
      "posts:7",
      targets,
      { slug: ["first-title", "new-title"], tag: ["go"] },
      SITE,
    );
    expect(body).toEqual(
      urls(
        "/blog",
        "/blog.data",
        "/blog/tags",
        "/blog/tags.data",
        "/blog/first-title",
        "/blog/first-title.data",
        "/blog/new-title",
        "/blog/new-title.data",
        "/blog/tags/go",
        "/blog/tags/go.data",
        "/blog/tags/go/rss.xml",
        "/blog/tags/go/atom.xml",
        "/blog/tags/go/feed.json",
        "/rss.xml",
        "/atom.xml",
        "/feed.json",
        "/sitemap.xml",
      ),
    );
  });

  it("name the home page and the résumé for the profile and the timelines", () => {
    for (const notice of ["profile", "experience", "education"]) {
      expect(purgeBodyOf(notice, targets, {}, SITE)).toEqual(
        urls("/", "/_root.data", "/resume.json"),
      );
    }
  });

  it("are everything when the pages cannot be listed", () => {
    // What every page shows; a bulk change of posts; a deleted post (its slugs are gone); a
    // notice not understood (or notices missed).
    expect(purgeBodyOf("site", targets, {}, SITE)).toEqual({ all: true });
    expect(purgeBodyOf("posts", targets, {}, SITE)).toEqual({ all: true });
    expect(purgeBodyOf("posts:3", targets, null, SITE)).toEqual({ all: true });
    expect(purgeBodyOf("all", targets, {}, SITE)).toEqual({ all: true });
  });

  it("encode parameters as the router does", () => {
    const body = purgeBodyOf("posts:1", targets, { slug: ["a"], tag: [] }, SITE);
    expect("urls" in body && body.urls).toContain(`${SITE}/blog/a`);
    expect("urls" in body && body.urls.some((u) => u.includes("/blog/tags/"))).toBe(false);
  });
});

describe("the purge's signature", () => {
  const secret = "a-secret-of-some-length";
  const body = '{"urls":["https://example.com/blog"]}';
  const at = 1_800_000_000;

  it("is the HMAC-SHA256 of the timestamp and the body, keyed by the secret", () => {
    const headers = signPurge(body, secret, at);
    const mac = createHmac("sha256", secret).update(`${at}.${body}`).digest("hex");
    expect(headers).toEqual({ "x-purge-timestamp": String(at), "x-signature": `sha256=${mac}` });
  });

  it("is accepted fresh and refused changed, replayed late, or under another secret", () => {
    const signed = signPurge(body, secret, at);
    const h = { timestamp: signed["x-purge-timestamp"], signature: signed["x-signature"] };
    const now = at * SECOND_MS;
    expect(verifyPurge(body, h, secret, now)).toBe(true);
    expect(verifyPurge(body, h, secret, now + CDN_PURGE.maxSkewMs)).toBe(true);
    expect(verifyPurge(body, h, secret, now + CDN_PURGE.maxSkewMs + SECOND_MS)).toBe(false);
    expect(verifyPurge(`${body} `, h, secret, now)).toBe(false);
    expect(verifyPurge(body, h, `${secret}x`, now)).toBe(false);
    expect(verifyPurge(body, { ...h, timestamp: String(at + 1) }, secret, now)).toBe(false);
    expect(verifyPurge(body, { ...h, signature: null }, secret, now)).toBe(false);
  });
});

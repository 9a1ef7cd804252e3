import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import {
  POST_LINK_LIMITS,
  POST_LINK_TEXT,
  readCanonicalUrl,
  readSyndication,
  webAddress,
} from "./post-links";
import { PostFields } from "./editor/post-fields";
import { postMeta } from "./reader/post-meta";
import type { PostView } from "./reader/post-view";
import { SyndicationLinks } from "./reader/syndication-links";

const site = {
  name: "Ada",
  title: "Engineer",
  location: "Madrid",
  email: "ada@example.com",
  description: "Ada, Engineer in Madrid.",
  shareImage: "/photo.jpg",
  shareCard: null,
};
const rendered = { html: "<p>Text</p>", toc: [], readingMinutes: 1, hasMath: false };
const view = (links: Partial<PostView>): PostView => ({
  id: 1,
  slug: "a-post",
  title: "A post",
  description: "About it",
  status: "published",
  publishedAt: new Date("2024-01-01T00:00:00Z"),
  updatedAt: new Date("2024-01-01T00:00:00Z"),
  tags: [],
  content: rendered,
  contentEn: null,
  shareImage: null,
  canonicalUrl: null,
  syndication: [],
  ...links,
});

describe("a post's links elsewhere", () => {
  it("takes http(s) addresses only, within the length limit", () => {
    expect(webAddress("https://dev.to/me/post")).toBe("https://dev.to/me/post");
    expect(webAddress(" http://Example.com ")).toBe("http://example.com/");
    for (const bad of ["javascript:alert(1)", "ftp://x.org/a", "/blog/a", "dev.to/x", ""]) {
      expect(webAddress(bad)).toBeNull();
    }
    expect(webAddress(`https://x.org/${"a".repeat(POST_LINK_LIMITS.urlLength)}`)).toBeNull();
    expect(readCanonicalUrl("  ")).toEqual({ url: null });
    expect(readCanonicalUrl("nope")).toEqual({ error: POST_LINK_TEXT.badUrl("nope") });
  });

  it("reads the copies one a line, dropping blanks and repeats, refusing too many", () => {
    expect(readSyndication("https://dev.to/a\n\nhttps://dev.to/a\r\nhttps://b.org/x")).toEqual({
      urls: ["https://dev.to/a", "https://b.org/x"],
    });
    expect(readSyndication(["https://a.org", "mailto:me@a.org"])).toEqual({
      error: POST_LINK_TEXT.badUrl("mailto:me@a.org"),
    });
    const many = Array.from(
      { length: POST_LINK_LIMITS.syndication + 1 },
      (_, i) => `https://a.org/${i}`,
    );
    expect(readSyndication(many)).toEqual({ error: POST_LINK_TEXT.tooMany });
  });

  it("points the canonical link, og:url and JSON-LD at the canonical URL", () => {
    const tags = postMeta({
      site,
      siteUrl: "https://me.dev",
      post: view({ canonicalUrl: "https://dev.to/me/a-post" }),
      segment: "a-post",
    });
    expect(tags).toContainEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://dev.to/me/a-post",
    });
    expect(tags).toContainEqual({ property: "og:url", content: "https://dev.to/me/a-post" });
    expect(JSON.stringify(tags)).toContain('"mainEntityOfPage":"https://dev.to/me/a-post"');
    const own = postMeta({ site, siteUrl: "https://me.dev", post: view({}), segment: "a-post" });
    expect(own).toContainEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://me.dev/blog/a-post",
    });
  });

  it("says a post changed when it last did, never before it was published", () => {
    const modified = (updatedAt: string) => {
      const post = view({
        publishedAt: new Date("2024-03-01T00:00:00Z"),
        updatedAt: new Date(updatedAt),
      });
      const tags = postMeta({ site, siteUrl: "https://me.dev", post, segment: "a-post" });
      const jsonLd = JSON.stringify(tags);
      const share = tags.find(
        (tag) => "property" in tag && tag.property === "article:modified_time",
      ) as { content: string };
      expect(jsonLd).toContain(`"dateModified":"${share.content}"`);
      return share.content;
    };
    // An imported post keeps the date its old site last changed it.
    expect(modified("2024-05-02T08:00:00Z")).toBe("2024-05-02T08:00:00.000Z");
    // A post written, then scheduled: its change is its publication.
    expect(modified("2024-01-15T00:00:00Z")).toBe("2024-03-01T00:00:00.000Z");
  });

  it("shows each copy as an 'Also on <host>' u-syndication link", () => {
    const html = renderToStaticMarkup(
      createElement(SyndicationLinks, {
        urls: ["https://dev.to/me/a-post", "https://www.hashnode.com/x"],
      }),
    );
    expect(html).toContain('class="u-syndication');
    expect(html).toContain('href="https://dev.to/me/a-post"');
    expect(html).toContain(">Also on dev.to</a>");
    expect(html).toContain(">Also on hashnode.com</a>");
    expect(renderToStaticMarkup(createElement(SyndicationLinks, { urls: [] }))).toBe("");
  });

  it("are fields of the editor's post settings, as typed", () => {
    const html = renderToStaticMarkup(
      createElement(PostFields, {
        draft: {
          title: "A post",
          description: "",
          html: "<p>x</p>",
          empty: false,
          slug: "",
          tagText: "",
          visibility: "now",
          publishAt: "",
          sendToSubscribers: true,
          canonicalUrl: "https://dev.to/me/a",
          syndicationText: "https://b.org/x",
        },
        editing: true,
        update: () => {},
      }),
    );
    expect(html).toContain(`<label for="post-canonical"`);
    expect(html).toContain(`>${POST_LINK_TEXT.canonical}</label>`);
    expect(html).toMatch(/id="post-canonical"[^>]*value="https:\/\/dev.to\/me\/a"/);
    expect(html).toContain(`>${POST_LINK_TEXT.syndication}</label>`);
    expect(html).toMatch(/id="post-syndication"[^>]*>https:\/\/b.org\/x<\/textarea>/);
  });
});

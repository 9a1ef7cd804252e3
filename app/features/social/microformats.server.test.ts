import { describe, expect, it } from "vitest";

import { externalLinks, linksTo } from "./links.server";
import { readSource } from "./microformats.server";

const TARGET = "https://blog.example.dev/blog/hello";
const SOURCE = "https://other.example/notes/1";

const entry = (inner: string) =>
  `<html><body><article class="h-entry">${inner}</article></body></html>`;

describe("does the source link to the target", () => {
  it("finds an href or src resolving to the target, and nothing else", () => {
    expect(linksTo(`<a href="${TARGET}">post</a>`, SOURCE, TARGET)).toBe(true);
    expect(linksTo(`<a href='${TARGET}#section'>post</a>`, SOURCE, TARGET)).toBe(true);
    expect(linksTo(`<img src="${TARGET}">`, SOURCE, TARGET)).toBe(true);
    expect(linksTo(`<a href="/blog/hello">post</a>`, "https://blog.example.dev/x", TARGET)).toBe(
      true,
    );
    expect(linksTo(`<p>${TARGET}</p>`, SOURCE, TARGET)).toBe(false);
    expect(linksTo(`<a href="${TARGET}-two">other</a>`, SOURCE, TARGET)).toBe(false);
    expect(linksTo(`<a data-href="${TARGET}">x</a>`, SOURCE, TARGET)).toBe(false);
  });

  it("lists a post's links outside the site, once each, up to a bound", () => {
    const html =
      '<a href="https://a.example/1">a</a><a href="/blog/x">own</a><a href="https://a.example/1#x">again</a>' +
      '<a href="mailto:x@y.z">mail</a><img src="https://b.example/i.png"><a href="https://c.example/">c</a>';
    expect(externalLinks(html, "https://blog.example.dev", 10)).toEqual([
      "https://a.example/1",
      "https://b.example/i.png",
      "https://c.example/",
    ]);
    expect(externalLinks(html, "https://blog.example.dev", 2)).toHaveLength(2);
  });
});

describe("reading the source's microformats2", () => {
  it("reads a reply: author's h-card, content, date", async () => {
    const read = await readSource(
      entry(`
        <a class="p-author h-card" href="/about"><img src="/me.jpg" alt="">Ada L.</a>
        <a class="u-in-reply-to" href="${TARGET}">in reply</a>
        <div class="e-content"><p>Great <strong>post</strong>.</p></div>
        <time class="dt-published" datetime="2026-11-20T10:00:00Z">Nov 20</time>`),
      SOURCE,
      TARGET,
    );
    expect(read).toEqual({
      kind: "reply",
      authorName: "Ada L.",
      authorUrl: "https://other.example/about",
      authorPhoto: "https://other.example/me.jpg",
      contentHtml: "<p>Great <strong>post</strong>.</p>",
      publishedAt: new Date("2026-11-20T10:00:00Z"),
    });
  });

  it.each([
    ["u-like-of", "like"],
    ["u-repost-of", "announce"],
    ["u-bookmark-of", "mention"],
  ])("reads %s as a %s", async (property, kind) => {
    const read = await readSource(
      entry(`<a class="${property}" href="${TARGET}">it</a>`),
      SOURCE,
      TARGET,
    );
    expect(read.kind).toBe(kind);
  });

  it("is a mention when the reply is to another page, or there is no h-entry", async () => {
    const other = await readSource(
      entry(`<a class="u-in-reply-to" href="https://x.example/">x</a> <a href="${TARGET}">t</a>`),
      SOURCE,
      TARGET,
    );
    expect(other.kind).toBe("mention");
    const plain = await readSource(`<p><a href="${TARGET}">t</a></p>`, SOURCE, TARGET);
    expect(plain).toMatchObject({ kind: "mention", authorName: null, contentHtml: null });
  });

  it("escapes plain-text content and takes a URL author as the author's URL", async () => {
    const read = await readSource(
      entry(
        `<span class="p-content">1 < 2</span><a class="p-author" href="https://x.example/">https://x.example/</a>`,
      ),
      SOURCE,
      TARGET,
    );
    expect(read.contentHtml).toBe("1 &lt; 2");
    expect(read.authorUrl).toBe("https://x.example/");
  });
});

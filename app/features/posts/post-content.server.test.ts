// The write path of post content (write sanitizer → highlighter → stored sanitizer) and the
// reader's framing, with the XSS corpora as inputs (tests/fixtures/README.md).
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { highlightCodeBlocks } from "./highlight.server";
import { absoluteMediaUrls, renderPostHtml } from "./render.server";
import { imagesWithoutAlt } from "./rules";
import { loadPostSanitizer, loadWriteSanitizer } from "./sanitize.server";

const write = await loadWriteSanitizer();
const stored = await loadPostSanitizer();
/** What readPostWrite stores for sent HTML (app/features/posts/content.server.ts). */
const save = async (html: string) => stored(await highlightCodeBlocks(write(html)));

const HASH = "a".repeat(64);
const HASH2 = "b".repeat(64);
const IMG = `<img src="/media/${HASH}.jpg" srcset="/media/${HASH2}.webp 480w, /media/${HASH2}.webp 800w" alt="A chart" width="800" height="600" />`;

const vectors = (
  JSON.parse(
    readFileSync(
      path.resolve(import.meta.dirname, "../../../tests/fixtures/xss/dompurify-vectors.json"),
      "utf8",
    ),
  ) as { payload: string }[]
).map((v) => v.payload);
const blns = (() => {
  const lines = readFileSync(
    path.resolve(import.meta.dirname, "../../../node_modules/big-list-of-naughty-strings/blns.txt"),
    "utf8",
  ).split("\n");
  const start = lines.findIndex((line) => /^#\s*Script Injection\s*$/.test(line));
  const end = lines.findIndex((line, i) => i > start + 3 && /^#\t[A-Z]/.test(line));
  return lines.slice(start + 1, end).filter((line) => line.trim() !== "" && !line.startsWith("#"));
})();
/** Each payload alone, inside a code block with a language, and inside a table cell. */
const corpus = [...vectors, ...blns].flatMap((payload) => [
  payload,
  `<pre><code class="language-html">${payload}</code></pre>`,
  `<pre class="shiki" style="color:#fff"><code class="language-typescript"><span style="color:red;background:url(javascript:alert(1))">${payload}</span></code></pre>`,
  `<table><tbody><tr><td colspan="1" style="x">${payload}</td></tr></tbody></table>`,
]);

const ALLOWED_STYLE =
  /^(?:color|--shiki-dark|background-color|--shiki-dark-bg|font-style|--shiki-dark-font-style|font-weight|--shiki-dark-font-weight|text-decoration|--shiki-dark-text-decoration)$/;

const COPY_BUTTON = ' type="button" class="code-copy" data-copy-code';

const VOID = new Set(["br", "hr", "img", "col", "source"]);

/** Closing tags that do not match the open element, and elements left open. */
function unbalanced(html: string): string[] {
  const open: string[] = [];
  const found: string[] = [];
  for (const [, closing, tag] of html.matchAll(/<(\/?)([a-z][a-z0-9-]*)\b[^>]*>/gi)) {
    if (VOID.has(tag!)) continue;
    if (!closing) open.push(tag!);
    else if (open.at(-1) === tag) open.pop();
    else found.push(`</${tag}> where <${open.at(-1) ?? "nothing"}> is open`);
  }
  return [...found, ...open.map((tag) => `<${tag}> left open`)];
}

/** Every problem an HTML string has as stored post content (or as rendered, with our buttons). */
function problems(html: string): string[] {
  const found: string[] = unbalanced(html);
  for (const [, tag, attributes] of html.matchAll(/<([a-z0-9-]+)\b([^>]*)>/gi)) {
    if (tag === "button" && attributes === COPY_BUTTON) continue;
    for (const [, name, value] of attributes!.matchAll(/([^\s=]+)="([^"]*)"/g)) {
      if (/^on/i.test(name!)) found.push(`${tag}[${name}]`);
      if (name === "style") {
        if (tag !== "pre" && tag !== "span") found.push(`style on ${tag}`);
        for (const declaration of value!.split(";").filter(Boolean)) {
          const [property, ...rest] = declaration.split(":");
          if (!ALLOWED_STYLE.test(property!.trim())) found.push(`style ${property}`);
          if (
            !/^#[0-9a-f]{3,8}$|^(?:italic|bold|normal|underline|none)$/i.test(rest.join(":").trim())
          )
            found.push(`style value ${rest.join(":")}`);
        }
      }
      if ((name === "src" || name === "srcset") && !value!.startsWith("/media/"))
        found.push(`${tag}[${name}=${value!.slice(0, 30)}]`);
      if (name === "href" && !/^(?:https?:\/\/|mailto:|#[a-z0-9-]+$)/i.test(value!))
        found.push(`href ${value}`);
    }
    if (
      /^(?:script|iframe|object|embed|style|svg|math|form|input|button|link|meta|base)$/i.test(tag!)
    )
      found.push(`<${tag}>`);
  }
  return found;
}

describe("the write path (write sanitizer, highlighter, stored sanitizer)", () => {
  it("keeps tables, rules, inline code, links and uploaded images as the editor makes them", async () => {
    const html =
      `<p><code>npm test</code> <a href="https://example.com">docs</a></p><hr />` +
      `<table><colgroup><col /><col /></colgroup><tbody><tr><th colspan="1" rowspan="1"><p>A</p></th><th colspan="2" rowspan="1"><p>B</p></th></tr>` +
      `<tr><td colspan="1" rowspan="1"><p>1</p></td><td colspan="1" rowspan="1"><p>2</p></td></tr></tbody></table>${IMG}`;
    const saved = await save(html);
    expect(saved).toBe(
      html.replace(
        '<a href="https://example.com">',
        '<a href="https://example.com" rel="noopener noreferrer nofollow">',
      ),
    );
    expect(stored(saved)).toBe(saved);
  });

  it.each([
    ["an external image", '<img src="https://evil.example/pixel.gif" alt="x">'],
    ["a data: image", '<img src="data:image/png;base64,AAAA" alt="x">'],
    ["a protocol-relative image", '<img src="//evil.example/x.png" alt="x">'],
    ["a media path with a query", `<img src="/media/${HASH}.jpg?x=1" alt="x">`],
    ["another folder", `<img src="/assets/${HASH}.jpg" alt="x">`],
    ["an svg from media", `<img src="/media/${HASH}.svg" alt="x">`],
  ])("drops %s entirely", async (_name, html) => {
    expect(await save(`<p>a</p>${html}`)).toBe("<p>a</p>");
  });

  it("drops a srcset naming anything but uploads, and sizes that are not small numbers", async () => {
    const saved = await save(
      `<img src="/media/${HASH}.jpg" srcset="https://evil.example/x.webp 480w" width="99999999" height="-1" alt=" A ">`,
    );
    expect(saved).toBe(`<img src="/media/${HASH}.jpg" alt="A" />`);
  });

  it("counts images without alt text (missing, empty or blank)", async () => {
    expect(imagesWithoutAlt(await save(IMG))).toBe(0);
    const none = await save(
      `<img src="/media/${HASH}.jpg"><img src="/media/${HASH}.png" alt="  ">`,
    );
    expect(imagesWithoutAlt(none)).toBe(2);
  });

  it("highlights a block in its language with both themes' colours, and nothing is lost", async () => {
    const code = 'SELECT id, "name" FROM users WHERE a < 3 AND b > 2; -- <script>';
    const saved = await save(
      `<pre><code class="language-sql">${code.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</code></pre>`,
    );
    expect(saved).toMatch(
      /^<pre class="shiki shiki-themes github-light-default github-dark-default" style="background-color:#ffffff;--shiki-dark-bg:#0d1117;[^"]*" tabindex="0"><code class="language-sql">/,
    );
    expect(saved).toMatch(
      /<span style="color:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}">SELECT<\/span>/,
    );
    expect(saved).not.toContain("<script>");
    // The stored sanitizer admits exactly the highlighter's output.
    expect(stored(saved)).toBe(saved);
    // The text is intact: tags off, entities decoded.
    const text = saved
      .replace(/<[^>]*>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&");
    expect(text).toBe(code);
    // Saving what was stored gives the same (the editor sends the text back, highlighted again).
    expect(await save(write(saved))).toBe(saved);
  });

  it("treats a block with no or an unknown language as plain text, and maps aliases", async () => {
    expect(await save("<pre><code>plain</code></pre>")).toContain('<code class="language-text">');
    // An unknown class is dropped by the write sanitizer, so the block is plain text.
    expect(await save('<pre><code class="language-cobol">X</code></pre>')).toContain(
      'class="language-text"',
    );
  });

  it("takes tokens from the highlighter only: a sent span or style never survives the write", async () => {
    const saved = await save(
      '<pre class="shiki" style="color:#000"><code class="language-typescript"><span style="color:#ff0000;--shiki-dark:#00ff00">const</span> x</code></pre>',
    );
    expect(saved).not.toContain("#ff0000");
    expect(saved).toContain("const");
  });

  it("stored sanitizer: only colours and Shiki's values in styles, only its classes, tabindex 0", () => {
    expect(
      stored(
        '<pre class="shiki evil" style="background-color:#fff;position:fixed;--shiki-dark-bg:url(x)" tabindex="5"><code class="language-go"><span class="line"><span style="color:red;--shiki-dark:#abc;font-style:italic;background-image:url(javascript:alert(1))">a</span><span style="position:fixed">b</span><span>c</span></span></code></pre>',
      ),
    ).toBe(
      '<pre class="shiki" style="background-color:#fff"><code class="language-go"><span class="line"><span style="--shiki-dark:#abc;font-style:italic">a</span>bc</span></code></pre>',
    );
  });

  it("unwraps spans that are not the highlighter's, keeping their text and the tags around", () => {
    expect(
      stored(
        '<span class=foo>Some text</span>\n<a href="http://x.example">x</a><span><span class="line">a</span></span>',
      ),
    ).toBe(
      'Some text\n<a href="http://x.example" rel="noopener noreferrer nofollow">x</a><span class="line">a</span>',
    );
  });

  it(`leaves nothing runnable from ${corpus.length} attack inputs, and is stable`, async () => {
    for (const input of corpus) {
      const saved = await save(input);
      expect(problems(saved), input).toEqual([]);
      const again = stored(saved);
      expect(again, input).toBe(saved);
      expect(problems(renderPostHtml(again).html), input).toEqual([]);
      // A row written around the API is only ever read through the stored sanitizer.
      const raw = stored(input);
      expect(problems(raw), input).toEqual([]);
      expect(problems(renderPostHtml(raw).html), input).toEqual([]);
    }
  }, 60_000);
});

describe("the reader's framing", () => {
  it("frames code blocks with their language and a copy button, tables with a scrolling region", async () => {
    const saved = await save(
      '<pre><code class="language-rust">fn main() {}</code></pre><pre><code>old</code></pre><table><tbody><tr><td><p>x</p></td></tr></tbody></table>',
    );
    const { html } = renderPostHtml(stored(saved));
    expect(html).toMatch(
      /^<div class="code-block"><div class="code-head"><span class="code-language">Rust<\/span><button type="button" class="code-copy" data-copy-code>Copy code<\/button><\/div><pre class="shiki/,
    );
    expect(html).toContain('<span class="code-language">Plain text</span>');
    expect(html).toContain(
      '<div class="table-scroll" role="region" aria-label="Table 1" tabindex="0"><table>',
    );
    // A plain block from before highlighting can still be scrolled by keyboard.
    expect(renderPostHtml("<pre><code>old</code></pre>").html).toContain('<pre tabindex="0">');
  });

  it("gives headings stable, unique, accent-folded anchors and lists h2/h3 from three", () => {
    const { html, toc } = renderPostHtml(
      "<h1>Top</h1><h2>Migración rápida</h2><h3>Café &amp; más</h3><h2>Migración rápida</h2><h2>main</h2><h2>¿?</h2>",
    );
    expect(toc).toEqual([
      { id: "migracion-rapida", text: "Migración rápida", level: 2 },
      { id: "cafe-mas", text: "Café & más", level: 3 },
      { id: "migracion-rapida-2", text: "Migración rápida", level: 2 },
      { id: "main-2", text: "main", level: 2 },
      { id: "section", text: "¿?", level: 2 },
    ]);
    expect(html).toContain(
      '<h3 id="cafe-mas">Café &amp; más<a class="heading-anchor" href="#cafe-mas" data-copy-link aria-label="Copy the link to “Café &amp; más”">#</a></h3>',
    );
    expect(renderPostHtml("<h2>a</h2><h3>b</h3><p>x</p>").toc).toEqual([]);
  });

  it("serves images as WebP with their fallback, sized, lazy below the first screen", () => {
    const long = `<p>${"word ".repeat(100)}</p>`;
    const { html } = renderPostHtml(`<p>Intro</p>${IMG}${long}${IMG}`);
    const [first, second] = html.match(/<picture>.*?<\/picture>/g)!;
    expect(first).toBe(
      `<picture><source type="image/webp" srcset="/media/${HASH2}.webp 480w, /media/${HASH2}.webp 800w" sizes="(min-width: 48rem) 48rem, 100vw"><img src="/media/${HASH}.jpg" alt="A chart" width="800" height="600" loading="eager" decoding="async"></picture>`,
    );
    expect(second).toContain('loading="lazy"');
    // An image after a screenful of text is lazy even when it is the first.
    expect(renderPostHtml(`${long}${IMG}`).html).toContain('loading="lazy"');
  });

  it("counts reading time from the visible words, a minute at least", () => {
    expect(renderPostHtml("<p>one two</p>").readingMinutes).toBe(1);
    expect(renderPostHtml(`<p>${"w ".repeat(460)}</p>`).readingMinutes).toBe(2);
    expect(
      renderPostHtml(`<p>${"w ".repeat(1150)}</p><pre><code>x</code></pre>`).readingMinutes,
    ).toBe(5);
  });

  it("makes feed image URLs absolute", () => {
    expect(absoluteMediaUrls(IMG, "https://me.example")).toBe(
      `<img src="https://me.example/media/${HASH}.jpg" srcset="https://me.example/media/${HASH2}.webp 480w, https://me.example/media/${HASH2}.webp 800w" alt="A chart" width="800" height="600" />`,
    );
  });
});

import katex from "katex";
import { describe, expect, test } from "vitest";

import { storableContent } from "./content.server";
import { markdownToHtml } from "./markdown-blocks";
import { renderPostHtml } from "./render.server";
import { loadPostSanitizer, loadWriteSanitizer } from "./sanitize.server";

const MARKDOWN = `Text[^1] and $x^2$ cost $5 and $10. Again[^b].

$$
\\frac{a}{b}
$$

> [!WARNING]
> Be **careful**.

> [!TIP]
> A tip.

> plain quote

\`\`\`
[^1]: not a note
\`\`\`

[^1]: The *first* note.
[^b]: Second
  continued.
`;

describe("Markdown with footnotes, math and callouts", () => {
  test("becomes the editor's markup", () => {
    const html = markdownToHtml(MARKDOWN);
    expect(html).toContain(
      'Text<span class="footnote">The first note.</span> and <span class="math math-inline" data-tex="x^2">x^2</span> cost $5 and $10. Again<span class="footnote">Second continued.</span>.',
    );
    expect(html).toContain('<div class="math math-display" data-tex="\\frac{a}{b}">');
    expect(html).toContain(
      '<div class="callout callout-warning" data-callout="warning"><p>Be <strong>careful</strong>.</p>',
    );
    expect(html).toContain('<div class="callout callout-tip" data-callout="tip">');
    expect(html).toContain("<blockquote>\n<p>plain quote</p>");
    expect(html).toContain("<pre><code>[^1]: not a note");
  });
});

const FORMULAS = [
  "x^2",
  "\\frac{a}{b}",
  "\\sqrt{x^2+1}",
  "\\sqrt[3]{x}",
  "\\sum_{i=0}^n i",
  "\\int_0^1 f(x)\\,dx",
  "\\begin{pmatrix}a&b\\\\c&d\\end{pmatrix}",
  "\\overrightarrow{AB}",
  "\\widehat{xyz}",
  "\\mathbb{R}",
  "\\left(\\frac{1}{2}\\right)",
  "\\text{hello}",
  "\\color{#c00}x",
  "\\cancel{x}",
  "\\underbrace{a+b}_{c}",
  "\\boxed{x}",
  "\\xrightarrow{f}",
  "\\begin{aligned}a&=b\\\\c&=d\\end{aligned}",
  "\\binom{n}{k}",
  "\\hat{x}\\vec{v}\\bar{y}",
  "\\fcolorbox{#f00}{#00f}{x}",
];

describe("math at save", () => {
  test.each(FORMULAS)("%s is stored as KaTeX renders it, HTML and MathML", async (tex) => {
    for (const display of [false, true]) {
      const input = display
        ? `<div class="math math-display" data-tex="${tex.replace(/&/g, "&amp;")}">${tex}</div>`
        : `<p><span class="math math-inline" data-tex="${tex.replace(/&/g, "&amp;")}">x</span></p>`;
      const saved = await storableContent(input);
      expect(saved.ok).toBe(true);
      const html = (saved as { html: string }).html;
      const rendered = katex.renderToString(tex, {
        displayMode: display,
        output: "htmlAndMathml",
        strict: false,
      });
      // Nothing KaTeX wrote is lost to the stored sanitizer (compared as the sanitizer writes).
      const normal = (await loadPostSanitizer())(rendered);
      expect(html).toContain(normal);
      expect(normal).toBe(
        // Compared as the sanitizer writes.
        rendered
          .replace(/<(line|path)(\s[^>]*)\/>/g, "<$1$2></$1>")
          .replace(/;"/g, '"')
          .replace(/border: /g, "border:")
          .replace(/viewBox=/g, "viewbox=")
          .replace(/preserveAspectRatio=/g, "preserveaspectratio="),
      );
      expect(html).toContain("<math");
      expect((await loadPostSanitizer())(html)).toBe(html);
    }
  });

  test("bad TeX refuses the save, naming the formula", async () => {
    const saved = await storableContent(
      '<p>See <span class="math math-inline" data-tex="\\frac{a">x</span></p>',
    );
    expect(saved).toEqual({
      ok: false,
      error: expect.stringMatching(/^The math “\\frac\{a” cannot be shown: /),
    });
  });

  test("KaTeX's trust stays off: no links or classes from TeX", async () => {
    const saved = await storableContent(
      '<p><span class="math math-inline" data-tex="\\href{javascript:alert(1)}{x}\\htmlClass{sr-only}{y}">x</span></p>',
    );
    const html = saved.ok ? saved.html : saved.error;
    expect(html).toContain("katex");
    expect(html).not.toMatch(/<a |href=|class="[^"]*sr-only/);
  });
});

describe("the sanitizers and the blocks", () => {
  test("the write sanitizer keeps exactly the blocks' markup", async () => {
    const write = await loadWriteSanitizer();
    expect(
      write(
        '<div class="callout callout-tip" data-callout="x" style="color:red"><p>a</p></div>' +
          '<div class="callout callout-danger"><p>b</p></div><div class="site-header"><p>c</p></div>' +
          '<p><span class="footnote" data-tex="x" onclick="x()">n</span><span class="sr-only">d</span>' +
          '<span class="math math-inline" data-tex="&quot;&gt;<script>">e</span></p>',
      ),
    ).toBe(
      '<div class="callout callout-tip" data-callout="tip"><p>a</p></div><p>b</p><p>c</p>' +
        '<p><span class="footnote">n</span>d<span class="math math-inline" data-tex="&quot;&gt;&lt;script&gt;">e</span></p>',
    );
  });

  test("the stored sanitizer drops KaTeX's classes and styles elsewhere, and anything else", async () => {
    const stored = await loadPostSanitizer();
    expect(
      stored(
        '<p><span class="katex" style="position:fixed;top:0em;background-image:url(x)">a</span>' +
          '<span class="katex-html sr-only">b</span><span class="katex"><svg onload="x()"><path d="M0 0" fill="url(#x)"></path><script>y</script></svg>' +
          '<math><mi href="javascript:x">c</mi></math></span><svg><path d="M1 1"></path></svg><math><mi>d</mi></math></p>',
      ),
    ).toBe(
      '<p><span class="katex" style="top:0em">a</span>b<span class="katex">' +
        '<svg><path d="M0 0"></path></svg><math><mi>c</mi></math></span></p>',
    );
  });
});

describe("the reader's footnotes and callouts", () => {
  test("footnotes are numbered, linked both ways and gathered at the end", async () => {
    const saved = await storableContent(markdownToHtml(MARKDOWN));
    const { html, hasMath } = renderPostHtml((saved as { html: string }).html);
    expect(hasMath).toBe(true);
    expect(html).toContain(
      'Text<sup class="footnote-ref"><a href="#fn-1" id="fnref-1" role="doc-noteref" aria-label="Footnote 1">1</a></sup>',
    );
    expect(html).toContain('id="fnref-2" role="doc-noteref" aria-label="Footnote 2">2</a></sup>');
    expect(html).toMatch(
      /<section class="footnotes" role="doc-endnotes" aria-labelledby="footnotes-heading"><h2 id="footnotes-heading" class="footnotes-heading">Footnotes<\/h2><ol><li id="fn-1"><p>The first note\. <a href="#fnref-1" class="footnote-back" role="doc-backlink" aria-label="Back to reference 1">↩<\/a><\/p><\/li><li id="fn-2"><p>Second continued\. .*<\/li><\/ol><\/section>$/,
    );
    expect(html).toContain(
      '<div class="callout callout-warning" role="note"><p class="callout-label">Warning</p><p>Be <strong>careful</strong>.</p>',
    );
  });

  test("a post without math or footnotes has neither", () => {
    const { html, hasMath } = renderPostHtml("<p>Plain $5</p>");
    expect(hasMath).toBe(false);
    expect(html).toBe("<p>Plain $5</p>");
  });
});

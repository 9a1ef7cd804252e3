import { describe, expect, test } from "vitest";

import { cleanGhostHtml, cleanWordPressHtml, imagesOfMarkdown } from "./html-clean";

describe("cleanWordPressHtml", () => {
  test("a [code] or [sourcecode] shortcode becomes a code block that keeps its language", () => {
    expect(cleanWordPressHtml('[code language="php"]\n<?php echo 1; ?>\n[/code]')).toBe(
      '<pre><code class="language-php">&lt;?php echo 1; ?&gt;</code></pre>',
    );
    expect(cleanWordPressHtml("[sourcecode lang=js]a && b[/sourcecode]")).toBe(
      '<pre><code class="language-js">a &amp;&amp; b</code></pre>',
    );
  });

  test("brackets that are no shortcode stay", () => {
    expect(cleanWordPressHtml("<p>See [1] and [note].</p>")).toBe("<p>See [1] and [note].</p>");
  });
});

test("imagesOfMarkdown finds Markdown images and <img> tags once each", () => {
  expect(
    imagesOfMarkdown('![a](/x.png "t") ![b](<https://e.org/y.jpg>) <img src="/x.png">'),
  ).toEqual(["/x.png", "https://e.org/y.jpg"]);
});

test("WordPress's footnotes block, Jetpack's LaTeX and Ghost's callouts become the editor's blocks", () => {
  const wordpress =
    '<p>Said<sup data-fn="a1" class="fn"><a href="#a1" id="a1-link">1</a></sup> with [latex]x^2 &lt; 1[/latex] and $latex \\pi$.</p>\n' +
    '<ol class="wp-block-footnotes"><li id="a1">The <em>note</em>. <a href="#a1-link" aria-label="Jump to footnote reference 1">↩︎</a></li></ol>';
  expect(cleanWordPressHtml(wordpress)).toBe(
    '<p>Said<span class="footnote">The note.</span> with ' +
      '<span class="math math-inline" data-tex="x^2 &lt; 1">x^2 &lt; 1</span> and ' +
      '<span class="math math-inline" data-tex="\\pi">\\pi</span>.</p>',
  );
  const ghost =
    '<p>Text<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup></p>' +
    '<div class="kg-card kg-callout-card kg-callout-card-blue"><div class="kg-callout-emoji">💡</div><div class="kg-callout-text">Heads up.</div></div>' +
    '<hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list"><li id="fn1" class="footnote-item"><p>A note. <a href="#fnref1" class="footnote-backref">↩︎</a></p></li></ol></section>';
  expect(cleanGhostHtml(ghost)).toBe(
    '<p>Text<span class="footnote">A note.</span></p>' +
      '<div class="callout callout-note" data-callout="note"><p>Heads up.</p></div>',
  );
});

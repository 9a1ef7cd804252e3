import { describe, expect, test } from "vitest";

import { cleanWordPressHtml, imagesOfMarkdown } from "./html-clean";

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

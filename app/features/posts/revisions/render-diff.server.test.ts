import { describe, expect, it } from "vitest";

import { tokensOf } from "./diff-markup";
import { renderDiff, renderTextDiff } from "./render-diff.server";
import { DIFF_MARK_TEXT } from "./rules";

const added = (text: string) =>
  `<ins><span class="sr-only"> ${DIFF_MARK_TEXT.added} </span>${text}</ins>`;
const removed = (text: string) =>
  `<del><span class="sr-only"> ${DIFF_MARK_TEXT.removed} </span>${text}</del>`;

describe("the History panel's diff", () => {
  it("cuts HTML into tokens that join back into it", () => {
    const html = '<p>Don’t &amp; <a href="https://x.example/?a=1&amp;b=2">stop</a>, ok? 😀</p>';
    expect(tokensOf(html).join("")).toBe(html);
    expect(tokensOf("<p>one two</p>")).toEqual(["<p>", "one", " ", "two", "</p>"]);
  });

  it("marks an added word and a removed word, each named for screen readers", async () => {
    const diff = await renderDiff("<p>The quick brown fox</p>", "<p>The quick red fox jumps</p>");
    expect(diff).toEqual({
      html: `<p>The quick ${removed("brown")}${added("red")} fox${added(" jumps")}</p>`,
      wordByWord: true,
    });
  });

  it("keeps the markup the post renders with, the newer version's where they differ", async () => {
    const { html } = await renderDiff(
      '<h2>Setup</h2><p>Run <code>npm test</code> <a href="https://a.example">here</a>.</p>',
      '<h2>Setup</h2><p>Run <code>npm start</code> <a href="https://a.example">here</a>.</p><ul><li><p>New item</p></li></ul>',
    );
    expect(html).toBe(
      `<h2>Setup</h2><p>Run <code>npm ${removed("test")}${added("start")}</code> ` +
        '<a href="https://a.example" rel="noopener noreferrer nofollow">here</a>.</p>' +
        `<ul><li><p>${added("New item")}</p></li></ul>`,
    );
  });

  it("shows a removed paragraph as the paragraph it was, and a removed tag alone not at all", async () => {
    const paragraph = await renderDiff("<p>A</p><p>B</p><p>C</p>", "<p>A</p><p>C</p>");
    expect(paragraph.html).toBe(`<p>A</p><p>${removed("B")}</p><p>C</p>`);
    const heading = await renderDiff("<p>Title</p>", "<h2>Title</h2>");
    expect(heading.html).toBe("<h2>Title</h2>");
  });

  it("shows the post's own struck text as struck, never as a removal", async () => {
    const { html } = await renderDiff("<p><del>old</del> text</p>", "<p><del>old</del> text</p>");
    expect(html).toBe("<p><s>old</s> text</p>");
  });

  it("lets no script, handler or foreign markup from either version through", async () => {
    const evil =
      '<p onclick="alert(1)">x<script>alert(1)</script><img src=x onerror="alert(1)">' +
      '<a href="javascript:alert(1)">l</a><iframe src="https://x"></iframe>' +
      '<span class="sr-only" style="color:red">s</span><ins onmouseover="alert(1)">i</ins></p>';
    for (const [before, after] of [
      [evil, "<p>safe</p>"],
      ["<p>safe</p>", evil],
      [evil, evil],
    ]) {
      const { html } = await renderDiff(before!, after!);
      expect(html).not.toMatch(/script|onerror|onclick|onmouseover|javascript|iframe|style=|src=/i);
    }
    const { html } = await renderTextDiff("<b>Title</b>", 'Title <img src=x onerror="alert(1)">');
    // Text, never markup: every `<` of the titles comes out escaped.
    expect(html).not.toMatch(/<(?:img|b)\b/);
    expect(html).toContain("&lt;b&gt;");
  });

  it("shows a rewrite too large to compare word by word as the old text removed and the new added", async () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join(" ");
    const after = Array.from({ length: 3000 }, (_, i) => `b${i}`).join(" ");
    const diff = await renderDiff(`<p>${before}</p>`, `<h2>${after}</h2>`);
    expect(diff.wordByWord).toBe(false);
    expect(diff.html).toBe(`<p>${removed(before)}</p><h2>${added(after)}</h2>`);
  });
});

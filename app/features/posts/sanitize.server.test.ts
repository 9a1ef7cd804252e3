import { describe, expect, it } from "vitest";

import { loadPostSanitizer } from "./sanitize.server";

const sanitizePostHtml = await loadPostSanitizer();

describe("sanitizePostHtml", () => {
  it("keeps every construct the editor makes", () => {
    const html =
      "<h1>One</h1><h2>Two</h2><h3>Three</h3>" +
      "<p><strong>bold</strong> <em>italic</em> <s>struck</s> <code>inline</code><br />next line</p>" +
      "<ul><li><p>bullet</p></li></ul><ol><li><p>number</p></li></ol>" +
      "<blockquote><p>quote</p></blockquote><pre><code>let x = 1 &lt; 2;</code></pre>";
    expect(sanitizePostHtml(html)).toBe(html);
  });

  it("keeps http, https and mailto links, and marks them", () => {
    for (const href of [
      "https://example.com/a?b=c&amp;d=e",
      "http://example.com",
      "mailto:me@example.com",
    ]) {
      expect(sanitizePostHtml(`<a href="${href}">x</a>`)).toBe(
        `<a href="${href}" rel="noopener noreferrer nofollow">x</a>`,
      );
    }
  });

  it.each([
    ["javascript:alert(1)"],
    ["JaVaScRiPt:alert(1)"],
    ["  javascript:alert(1)"],
    ["vbscript:msgbox(1)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["//evil.example.com/x"],
    ["ftp://example.com/x"],
    ["\u2028javascript:alert(1)"],
    ["\u00a0javascript:alert(1)"],
    ["\ufeffjavascript:alert(1)"],
    ["java\u0000script:alert(1)"],
    ["https://example.com/\u2028x"],
    ["/relative/path"],
  ])("drops the link target %s", (href) => {
    expect(sanitizePostHtml(`<a href="${href}">x</a>`)).toBe(
      '<a rel="noopener noreferrer nofollow">x</a>',
    );
  });

  it("strips scripts, handlers, styles, frames, forms and unknown attributes", () => {
    const dirty =
      '<p onclick="alert(1)" style="color:red" class="x" id="y">hi</p>' +
      '<script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe>' +
      '<img src=x onerror="alert(1)"><svg onload="alert(1)"><circle/></svg>' +
      '<form action="https://x"><input name="a"><button formaction="javascript:alert(1)">b</button></form>' +
      '<a href="https://ok.example" target="_blank" rel="opener" onmouseover="alert(1)">link</a>';
    expect(sanitizePostHtml(dirty)).toBe(
      '<p>hi</p>b<a href="https://ok.example" rel="noopener noreferrer nofollow">link</a>',
    );
  });

  it("keeps the text of tags outside the allowlist (headings 4-6, spans, divs)", () => {
    expect(sanitizePostHtml("<h4>four</h4><div><span>text</span></div><u>under</u>")).toBe(
      "fourtextunder",
    );
  });

  it("escapes text so it cannot become markup", () => {
    expect(sanitizePostHtml('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "q"</p>')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "q"</p>',
    );
  });

  it("is stable: sanitizing twice changes nothing", () => {
    const once = sanitizePostHtml('<p>a<a href="https://x.example">b</a><script>c</script></p>');
    expect(sanitizePostHtml(once)).toBe(once);
  });
});

import { describe, expect, it } from "vitest";

import {
  htmlToText,
  inlineStyles,
  newsletterMailFor,
  renderNewsletter,
} from "./newsletter-mail.server";

const SITE = { url: "https://blog.example.dev", name: "Ana <Dev>", from: "ana@example.dev" };
const POST = {
  id: 3,
  title: 'Tips & "tricks" <b>',
  description: null,
  slug: "tips",
  content: '<p>Hi <a href="/about">me</a></p><img src="/media/a.webp" alt="A">',
  publishedAt: new Date("2026-11-26T10:00:00Z"),
};

describe("the newsletter's mail", () => {
  it("styles every element inline and keeps a code token's light colour alone", () => {
    const html = inlineStyles(
      '<p>x <code>y</code></p><pre class="shiki" style="background-color:#fff;--shiki-dark-bg:#000" tabindex="0"><code class="language-ts"><span class="line"><span style="color:#CF222E;--shiki-dark:#FF7B72">const</span></span></code></pre>',
    );
    expect(html).toMatch(/^<p style="margin:0 0 16px">x <code style="font-family:/);
    expect(html).toContain('<pre style="background-color:#fff;font-family:');
    expect(html).toContain('<span style="color:#CF222E">const</span>');
    expect(html).not.toMatch(/--shiki|class=|tabindex/);
  });

  it("reads as plain text: entities decoded, lists dashed, code kept as written, tables by row", () => {
    const text = htmlToText(
      "<h2>Set &amp; go</h2><p>A&nbsp;b &lt;c&gt;</p><ul><li>One</li><li>Two</li></ul>" +
        "<pre><code>if (a &lt; b) {\n  go();\n}</code></pre><hr>" +
        "<table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table>",
    );
    expect(text).toBe(
      "SET & GO\n\nA b <c>\n\n- One\n- Two\n\nif (a < b) {\n  go();\n}\n\n---\n\nk\tv\n\n1\t2",
    );
  });

  it("escapes the title and the site's name, and names each recipient in the footer and headers", () => {
    const rendered = renderNewsletter(POST, SITE);
    expect(rendered.subject).toBe(POST.title);
    expect(rendered.html).toContain("Tips &amp; &quot;tricks&quot; &lt;b&gt;");
    expect(rendered.html).toContain("Ana &lt;Dev&gt;");
    expect(rendered.html).toContain('href="https://blog.example.dev/about"');
    expect(rendered.html).toContain('src="https://blog.example.dev/media/a.webp"');
    const link = "https://blog.example.dev/unsubscribe?s=7&t=abc";
    const mail = newsletterMailFor(rendered, SITE, {
      postId: 3,
      subscriberId: 7,
      email: "bo@example.com",
      unsubscribeUrl: link,
    });
    expect(mail.html).toContain('href="https://blog.example.dev/unsubscribe?s=7&amp;t=abc"');
    expect(mail.text).toContain(`Unsubscribe: ${link}`);
    expect(mail.headers).toEqual({
      "List-Unsubscribe": `<${link}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(mail.messageId).toBe("<newsletter-3-7@blog.example.dev>");
    expect(mail.idempotencyKey).toBe("newsletter-3-7");
    expect(mail.html).not.toContain("\u0000");
  });
});

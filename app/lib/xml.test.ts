import { describe, expect, it } from "vitest";

import { escapeXml } from "./xml";

describe("escapeXml", () => {
  it("escapes markup characters", () => {
    expect(escapeXml(`Tom & Jerry <b>"hi"</b> it's`)).toBe(
      "Tom &amp; Jerry &lt;b&gt;&quot;hi&quot;&lt;/b&gt; it&apos;s",
    );
  });
  it("drops characters XML cannot carry, keeps the rest of unicode", () => {
    expect(escapeXml("a\u0000b\u0008c\uFFFEd \u{1F680} é 日本")).toBe("abcd \u{1F680} é 日本");
    expect(escapeXml("tab\tand\nnewline")).toBe("tab\tand\nnewline");
  });
});

import { gunzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { PageCache } from "./store";
import { bodyOf, etagOf } from "./body";

describe("cached bodies", () => {
  const fill = async (cache: PageCache, key: string, text: string) => {
    const body = Buffer.from(text);
    return (
      await cache.fill(key, async () => ({
        status: 200,
        headers: [],
        body,
        etag: etagOf(body),
        tags: [],
      }))
    ).entry!;
  };

  it.each([
    ["a page", `<script>1</script><p>${"text é ünïcode ".repeat(2000)}</p>`],
    ["an empty body", ""],
    ["a NUL byte", "<p>a\0b</p>".repeat(9)],
  ])("sends %s as stored, plain and gzip", async (_, text) => {
    const entry = await fill(new PageCache({ maxBytes: 1 << 22 }), "/", text);
    expect(bodyOf(entry, false).toString()).toBe(text);
    // gunzip checks the CRC-32 and length in the trailer too.
    expect(gunzipSync(bodyOf(entry, true)).toString()).toBe(text);
  });

  it("sends every response the same stored buffer: nothing is made per hit", async () => {
    const entry = await fill(new PageCache({ maxBytes: 1 << 20 }), "/blog", "<p>x</p>".repeat(99));
    for (const gzip of [false, true]) expect(bodyOf(entry, gzip)).toBe(bodyOf(entry, gzip));
    expect(bodyOf(entry, true)).not.toBe(bodyOf(entry, false));
  });

  it("keeps a large page's gzip small", async () => {
    const entry = await fill(
      new PageCache({ maxBytes: 1 << 24 }),
      "/",
      "<p>the same paragraph again</p>".repeat(3000),
    );
    expect(bodyOf(entry, true).length).toBeLessThan(bodyOf(entry, false).length / 20);
  });

  it("names each body by its bytes", () => {
    const a = etagOf(Buffer.from("<p>a</p>"));
    expect(a).toMatch(/^W\/"[\w-]{27}"$/);
    expect(etagOf(Buffer.from("<p>a</p>"))).toBe(a);
    expect(etagOf(Buffer.from("<p>b</p>"))).not.toBe(a);
  });
});

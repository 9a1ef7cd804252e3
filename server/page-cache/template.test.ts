import { gunzipSync, gzipSync } from "node:zlib";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { type Entry, PageCache } from "./store";
import { bodyOf, bodyPieces } from "./template";

describe("cached bodies", () => {
  const fill = async (cache: PageCache, key: string, body: string, nonce: string) =>
    (
      await cache.fill(key, async () => ({
        status: 200,
        headers: [],
        parts: body.split(nonce).map((part) => Buffer.from(part)),
        etag: 'W/"x"',
        tags: [],
      }))
    ).entry!;

  // Nonces as this server makes them: 16 random bytes in base64.
  const RENDERED = "UmVuZGVyZWROb25jZTEyMw==";
  const FRESH = "bm9uY2Uvd2l0aCtiYXNlNjQ=";

  const servedBoth = (entry: Entry, nonce: string) => ({
    plain: bodyOf(entry, nonce, false).toString(),
    // gunzip checks the CRC-32 and length in the trailer too.
    gunzipped: gunzipSync(bodyOf(entry, nonce, true)).toString(),
  });

  it.each([
    ["a nonce in the middle", `<script nonce="N">1</script><p>${"text ".repeat(2000)}</p>`],
    ["nonces at both ends and side by side", "N<p>é ünïcode</p>NN<b>x</b>N"],
    ["no nonce at all", "<p>plain</p>".repeat(50)],
    ["an empty body", ""],
    ["a NUL byte (compressed without a dictionary)", "<p>a\0b</p><i nonce=N>N</i>".repeat(9)],
    [
      "nonces spread over more than DEFLATE's 32 KB window",
      Array.from(
        { length: 40 },
        (_, i) => `<link nonce="N" href="/a${i}.js">${"ab".repeat(900)}`,
      ).join(""),
    ],
  ])("splices a fresh nonce into plain and gzip bodies with %s", async (_, shape) => {
    const body = shape.replaceAll("N", RENDERED);
    const entry = await fill(new PageCache({ maxBytes: 1 << 22 }), "/", body, RENDERED);
    const expected = shape.replaceAll("N", FRESH);
    expect(servedBoth(entry, FRESH)).toEqual({ plain: expected, gunzipped: expected });
    // Every response gets its own: a second nonce leaves nothing of the first.
    const again = "YW5vdGhlci1ub25jZS0xMjM=";
    expect(servedBoth(entry, again).gunzipped).toBe(shape.replaceAll("N", again));
  });

  it("splices any page and any nonce correctly (property)", async () => {
    const nonce = fc
      .uint8Array({ minLength: 16, maxLength: 16 })
      .map((bytes) => Buffer.from(bytes).toString("base64"));
    // Text that repeats around the slots, so the compressor is tempted to match across them.
    const chunk = fc.oneof(
      fc.constantFrom('<script nonce="', '">', "</script>", "nonce", "=="),
      fc.string({ unit: "grapheme", maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(chunk, { maxLength: 30 }).map((c) => c.join("")),
          { maxLength: 12 },
        ),
        nonce,
        nonce,
        async (between, rendered, fresh) => {
          const pieces = between.map((text) => text.replaceAll("\0", ""));
          const entry = await fill(
            new PageCache({ maxBytes: 1 << 22 }),
            "/",
            pieces.join(rendered),
            rendered,
          );
          const expected = pieces.join(fresh);
          expect(servedBoth(entry, fresh)).toEqual({ plain: expected, gunzipped: expected });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("compresses a page split at 25 nonces about as well as one gzip stream", async () => {
    const body =
      Array.from(
        { length: 25 },
        (_, i) => `<link rel="modulepreload" href="/assets/chunk-${i}.js" nonce="${RENDERED}"/>`,
      ).join("") + `<main>${"<p>A paragraph about backend work in Dublin.</p>".repeat(200)}</main>`;
    const entry = await fill(new PageCache({ maxBytes: 1 << 22 }), "/", body, RENDERED);
    const spliced = bodyOf(entry, FRESH, true).length;
    const oneStream = gzipSync(body.replaceAll(RENDERED, FRESH)).length;
    // Each slot costs its nonce's 24 bytes as they are, its stored block's 5 header bytes, the
    // sync flush's 5 and a new block's header; one stream also compresses the 25 equal nonces.
    // Compressed part by part without the dictionary, this page takes 2,520 bytes.
    expect(spliced).toBeLessThanOrEqual(oneStream * 1.05 + 25 * 45);
  });

  it("keeps a large page's gzip small", async () => {
    const body = `<script nonce="${RENDERED}">1</script>${"<p>the same paragraph again</p>".repeat(3000)}`;
    const entry = await fill(new PageCache({ maxBytes: 1 << 24 }), "/", body, RENDERED);
    expect(bodyOf(entry, FRESH, true).length).toBeLessThan(body.length / 20);
  });

  it("sends a page without a nonce as one stored piece, gzip trailer included", async () => {
    const body = "<rss><item>no script here</item></rss>".repeat(40);
    const entry = await fill(new PageCache({ maxBytes: 1 << 20 }), "/rss.xml", body, RENDERED);
    for (const gzip of [false, true]) {
      const pieces = bodyPieces(entry, FRESH, gzip);
      expect(pieces).toHaveLength(1);
      // The same bytes for every response: nothing is made per hit.
      expect(bodyPieces(entry, "YW5vdGhlci1ub25jZS0xMjM=", gzip)[0]).toBe(pieces[0]);
    }
    expect(gunzipSync(bodyPieces(entry, FRESH, true)[0]!).toString()).toBe(body);
  });

  it("joins and compresses a nonce of another length as it is", async () => {
    const entry = await fill(new PageCache({ maxBytes: 1 << 20 }), "/", "aNbNc", "N");
    expect(bodyOf(entry, "xyz", false).toString()).toBe("axyzbxyzc");
    expect(gunzipSync(bodyOf(entry, "xyz", true)).toString()).toBe("axyzbxyzc");
  });
});

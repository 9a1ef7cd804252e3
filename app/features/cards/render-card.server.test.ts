import sharp from "sharp";
import { describe, expect, it } from "vitest";

import { CARD_SIZE } from "./card";
import { drawCards, type CardSpec } from "./render-card.server";

/** The most a card may weigh: link previews fetch it, some refuse big images. */
const MAX_CARD_BYTES = 150 * 1024;

/** A photo as the pipeline stores one: a JPEG with detail (noise compresses badly). */
async function photo(): Promise<Uint8Array> {
  const { width, height } = { width: 480, height: 480 };
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 82 })
    .toBuffer();
}

const card = (spec: Partial<CardSpec> = {}): CardSpec => ({
  heading: "Queues in PostgreSQL, with SKIP LOCKED",
  detail: "November 26, 2026",
  site: "Ada Lovelace",
  photo: null,
  ...spec,
});

const pixels = async (png: Uint8Array) => sharp(png).raw().toBuffer();

describe("drawing share cards", () => {
  it("draws 1200×630 PNGs under 150 KB, with a photo or without, in order", async () => {
    const withPhoto = card({ photo: await photo() });
    const pngs = await drawCards([card(), withPhoto]);
    expect(pngs).toHaveLength(2);
    for (const png of pngs) {
      const meta = await sharp(png).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
        format: "png",
        ...CARD_SIZE,
      });
      expect(png.byteLength).toBeLessThan(MAX_CARD_BYTES);
    }
    // The photo is drawn: the two cards differ, and not only by a few pixels of text.
    const [a, b] = await Promise.all(pngs.map(pixels));
    let differing = 0;
    for (let i = 0; i < a!.length; i++) if (a![i] !== b![i]) differing++;
    expect(differing).toBeGreaterThan(240 * 240);
  });

  it("draws what it is given: another title is another image", async () => {
    const [one, two, again] = await drawCards([card(), card({ heading: "Another title" }), card()]);
    expect(Buffer.from(one!).equals(Buffer.from(two!))).toBe(false);
    // The same card twice is the same bytes: stored once, at the same URL.
    expect(Buffer.from(one!).equals(Buffer.from(again!))).toBe(true);
  });

  it("draws long titles, accents, other scripts and emoji without failing, within the size", async () => {
    const headings = [
      "A very long title ".repeat(30),
      "Crème brûlée für Ärger: ÀÉÎÕÜ ß ñ ç ø å",
      "Ёлка и ελληνικά, Tiếng Việt",
      "Shipping it 🚀🎉 👩‍💻 with ❤️",
      "日本語のタイトル",
      "x".repeat(400),
    ];
    const pngs = await drawCards(headings.map((heading) => card({ heading })));
    for (const png of pngs) {
      const meta = await sharp(png).metadata();
      expect([meta.width, meta.height]).toEqual([CARD_SIZE.width, CARD_SIZE.height]);
      expect(png.byteLength).toBeLessThan(MAX_CARD_BYTES);
    }
  });

  it("cuts a long title: anything past the cut does not change the card", async () => {
    const long = "Word ".repeat(60);
    const [a, b] = await drawCards([
      card({ heading: long }),
      card({ heading: `${long}and a different end` }),
    ]);
    expect(Buffer.from(a!).equals(Buffer.from(b!))).toBe(true);
  });

  it("refuses to draw a photo that is not an image, with an error", async () => {
    await expect(drawCards([card({ photo: new Uint8Array([1, 2, 3, 4]) })])).rejects.toThrow(
      /share cards were not drawn/,
    );
  });
});

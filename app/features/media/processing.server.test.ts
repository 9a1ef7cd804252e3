import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import type * as ImageThreadModule from "./image-thread.server";
import { processImage, processPhoto } from "./processing.server";
import {
  ANIMATION_MAX_PIXELS,
  PROCESSING_MAX_WAITING,
  UPLOAD_LIMITS,
  UPLOAD_TEXT,
} from "./uploads";

// Every picture is made here, from code. sharp runs for real, in the image thread; the thread is
// handed a wrapper (./recording-sharp.test-helper.cjs) that writes down what each
// `sharp(input, options)` was given, so the test sees how often an upload's own bytes were
// opened, how (a header read passes `limitInputPixels: false`, a decode does not), and where.
const openings = vi.hoisted(() => {
  const file = `${process.env.TMPDIR ?? "/tmp"}/sharp-openings-${process.pid}.jsonl`;
  process.env.SHARP_OPENINGS_FILE = file;
  return file;
});
vi.mock("./image-thread.server", async (importOriginal) => {
  const actual = await importOriginal<typeof ImageThreadModule>();
  const sharpPath = path.join(import.meta.dirname, "recording-sharp.test-helper.cjs");
  return { ...actual, createImageThread: () => actual.createImageThread({ sharpPath }) };
});

type Opening = { digest: string; header: boolean; threadId: number };
const digestOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** How the upload `bytes` (or any upload of the same content) was opened: header reads and decodes. */
function openingsOf(bytes: Uint8Array) {
  const digest = digestOf(bytes);
  const mine = readFileSync(openings, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Opening)
    .filter((opening) => opening.digest === digest);
  // Never on this thread, which stands for the server's: only the image thread runs sharp.
  expect(mine.filter((opening) => opening.threadId === 0)).toEqual([]);
  const headers = mine.filter(({ header }) => header).length;
  return { headers, decodes: mine.length - headers };
}

const COLOURS = [
  { r: 220, g: 20, b: 20 },
  { r: 20, g: 20, b: 220 },
  { r: 20, g: 160, b: 20 },
  { r: 240, g: 200, b: 0 },
  { r: 120, g: 0, b: 160 },
];
const solid = (width: number, height: number, colour = COLOURS[1]!) =>
  sharp({ create: { width, height, channels: 3, background: colour } });

/** An animated GIF of `frames` solid frames in turn of COLOURS. */
async function animatedGif(frames: number, width: number, height: number, delay: number[]) {
  const pngs = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      solid(width, height, COLOURS[i % 5])
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pngs, { join: { animated: true } })
    .gif({ delay, loop: 2 })
    .toBuffer();
}

let bomb: Buffer;
beforeAll(async () => {
  // The review's file: 50 frames of 1000 × 1000, about 86 KB, 50 megapixels over its frames.
  bomb = await animatedGif(50, 1000, 1000, Array(50).fill(100));
});

beforeEach(() => {
  writeFileSync(openings, "");
});

afterAll(() => rmSync(openings, { force: true }));

describe("an animated post image", () => {
  it("is refused from its header when its frames hold too many pixels, decoding none", async () => {
    expect(bomb.length).toBeLessThan(100_000);
    const header = await sharp(bomb).metadata();
    expect([header.pages, header.width, header.height]).toEqual([50, 1000, 1000]);
    expect(50 * 1000 * 1000).toBeGreaterThan(ANIMATION_MAX_PIXELS);
    writeFileSync(openings, "");

    expect(await processImage(bomb)).toEqual({
      ok: false,
      error: UPLOAD_TEXT.animationTooManyPixels,
    });
    expect(openingsOf(bomb)).toEqual({ headers: 1, decodes: 0 });
    expect(UPLOAD_TEXT.animationTooManyPixels).toContain("25 megapixels over all its frames");
  });

  it("is refused the same way as an animated WebP", async () => {
    // 26 frames of 1000 × 1000: just over the limit.
    // Each frame its own grey: an encoder merges identical frames into one.
    const frame = 1000 * 1000 * 3;
    const frames = Buffer.alloc(26 * frame);
    for (let i = 0; i < 26; i++) frames.fill(i * 9, i * frame, (i + 1) * frame);
    const webp = await sharp(frames, {
      raw: { width: 1000, height: 26_000, channels: 3, pageHeight: 1000 },
      animated: true,
    })
      .webp({ effort: 0 })
      .toBuffer();
    expect((await sharp(webp).metadata()).pages).toBe(26);
    writeFileSync(openings, "");
    expect(await processImage(webp)).toEqual({
      ok: false,
      error: UPLOAD_TEXT.animationTooManyPixels,
    });
    expect(openingsOf(webp)).toEqual({ headers: 1, decodes: 0 });
  });

  it("within the limit stays animated, with its timing, from one decode of every frame", async () => {
    // 3 × 2000 × 1000 = 6 megapixels: every width, and a GIF fallback.
    const gif = await animatedGif(3, 2000, 1000, [100, 200, 300]);
    const result = await processImage(gif);
    if (!result.ok) throw new Error(result.error);
    expect(result.files.map((f) => `${f.contentType} ${f.width}x${f.height}`)).toEqual([
      "image/webp 480x240",
      "image/webp 800x400",
      "image/webp 1200x600",
      "image/webp 1600x800",
      "image/gif 1600x800",
    ]);
    // Five files, one decode (and the header read before it).
    expect(openingsOf(gif)).toEqual({ headers: 1, decodes: 1 });
    for (const file of result.files) {
      const meta = await sharp(file.bytes).metadata();
      expect([meta.pages, meta.pageHeight ?? meta.height]).toEqual([3, file.height]);
      expect(meta.delay).toEqual([100, 200, 300]);
      expect(meta.loop).toBe(2);
      // Each frame keeps its own colour: the second one is blue.
      const { data, info } = await sharp(file.bytes, { page: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const at = (Math.floor(info.height / 2) * info.width + 10) * info.channels;
      expect(data[at + 2]).toBeGreaterThan(180);
      expect(data[at]).toBeLessThan(60);
    }
  });
});

describe("a still image and a photo", () => {
  it("are decoded once for every width and format", async () => {
    const jpeg = await solid(4000, 3000).jpeg().toBuffer();
    const image = await processImage(jpeg);
    if (!image.ok) throw new Error(image.error);
    expect(image.files).toHaveLength(5);
    expect(openingsOf(jpeg)).toEqual({ headers: 1, decodes: 1 });

    const photo = await processPhoto(jpeg);
    if (!photo.ok) throw new Error(photo.error);
    expect(photo.files).toHaveLength(4);
    expect(openingsOf(jpeg)).toEqual({ headers: 2, decodes: 2 });
  });

  it("keep half-transparent colours as they were", async () => {
    const png = await sharp({
      create: {
        width: 1000,
        height: 1000,
        channels: 4,
        background: { r: 0, g: 128, b: 0, alpha: 0.5 },
      },
    })
      .png()
      .toBuffer();
    const result = await processImage(png);
    if (!result.ok) throw new Error(result.error);
    for (const file of result.files) {
      const { data } = await sharp(file.bytes).raw().toBuffer({ resolveWithObject: true });
      expect(Math.abs(data[1]! - 128), file.contentType).toBeLessThanOrEqual(4);
      expect(Math.abs(data[3]! - 128), file.contentType).toBeLessThanOrEqual(2);
    }
  });
});

describe("image uploads at once", () => {
  it("take turns: past the waiting places they are answered busy, and nothing is decoded", async () => {
    // Large enough that the first is still being encoded when the last has been checked.
    const jpeg = await solid(3000, 2000).jpeg().toBuffer();
    expect(jpeg.length).toBeLessThan(UPLOAD_LIMITS.image);
    const copies = Array.from({ length: PROCESSING_MAX_WAITING + 3 }, () => Buffer.from(jpeg));
    const results = await Promise.all(copies.map((bytes) => processImage(bytes)));
    const busy = results.filter((r) => !r.ok);
    expect(results.filter((r) => r.ok)).toHaveLength(1 + PROCESSING_MAX_WAITING);
    expect(busy).toEqual([
      { ok: false, error: UPLOAD_TEXT.busy, busy: true },
      { ok: false, error: UPLOAD_TEXT.busy, busy: true },
    ]);
    // The copies are the same bytes: each had its header read, and only those with a turn were decoded.
    expect(openingsOf(jpeg)).toEqual({
      headers: copies.length,
      decodes: 1 + PROCESSING_MAX_WAITING,
    });
  });
});

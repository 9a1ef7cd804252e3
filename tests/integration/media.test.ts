import { createHash } from "node:crypto";

import sharp from "sharp";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  PHOTO_MAX_PIXELS,
  postImageOf,
  UPLOAD_LIMITS,
  UPLOAD_TEXT,
  uploadTooLargeText,
  uploadTypeText,
  type UploadKind,
} from "../../app/features/media/uploads";
import {
  imageWidths,
  processCv,
  processImage,
  processPhoto,
  type ProcessedFile,
} from "../../app/features/media/processing.server";
import { readMedia, storeMedia } from "../../app/features/media/store.server";
import { SEED_PROFILE } from "../../app/features/site/site.server";
import {
  ensureProfile,
  getProfile,
  replaceCv,
  replacePhoto,
} from "../../app/features/profile/profile.server";
import { drivers, queryRows, skipReason, type TestDatabase } from "./databases";

// Every file is made here, from code: no binary fixtures in the repository.

const RED = { r: 220, g: 20, b: 20 };
const BLUE = { r: 20, g: 20, b: 220 };
const solid = (width: number, height: number, background: object = BLUE, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background } });

/** A phone photo as it arrives: EXIF with the camera and where it was taken. */
const gpsJpeg = () =>
  solid(900, 600)
    .jpeg()
    .withExif({
      IFD0: { Make: "SpyCam", Model: "GPS 3000", Copyright: "Jo Doe" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "53/1 20/1 0/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "6/1 15/1 0/1",
      },
    })
    .toBuffer();

/**
 * Stored sideways, as cameras do: red left half, blue right half, with EXIF orientation 6
 * ("rotate 90° clockwise to show"). Upright it is red on top, blue below.
 */
async function sidewaysJpeg() {
  const left = await solid(200, 200, RED).png().toBuffer();
  return solid(400, 200)
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/**
 * The smallest PDF a reader opens: a catalog, an empty page tree, and a trailer. `padding`
 * bytes of comment make it any size.
 */
function pdf(padding = 0) {
  const head = [
    "%PDF-1.4",
    "1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj",
    "2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj",
    "trailer <</Root 1 0 R>>",
    "%%EOF",
    "",
  ].join("\n");
  return Buffer.concat([Buffer.from(head), Buffer.alloc(padding, "%")]);
}
const pdfOfSize = (size: number) => pdf(size - pdf().length);

type Fixtures = Record<
  "jpeg" | "sideways" | "png" | "webp" | "tiny" | "huge" | "bigPhotoJpeg",
  Buffer
>;
let fixtures: Fixtures;

beforeAll(async () => {
  fixtures = {
    jpeg: await gpsJpeg(),
    sideways: await sidewaysJpeg(),
    // Transparent, square and large enough for every width.
    png: await solid(700, 700, { r: 0, g: 128, b: 0, alpha: 0.5 }, 4).png().toBuffer(),
    webp: await solid(900, 600, RED).webp().toBuffer(),
    // Smaller than the smallest width: still served at it.
    tiny: await solid(100, 80).jpeg().toBuffer(),
    // 60 megapixels of one colour: a small file that decodes to 180 MB.
    huge: await solid(10_000, 6_000).png({ compressionLevel: 9 }).toBuffer(),
    // A real JPEG, to pad past the size limit.
    bigPhotoJpeg: await solid(300, 300).jpeg().toBuffer(),
  };
});

const expectRefused = (result: Awaited<ReturnType<typeof processPhoto>>, error: string) =>
  expect(result).toEqual({ ok: false, error });

/** What a file's own header says about it. */
const metadataOf = (bytes: Uint8Array) => sharp(bytes).metadata();

/** The colour of one pixel. */
async function pixel(bytes: Uint8Array, x: number, y: number) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at]!, g: data[at + 1]!, b: data[at + 2]! };
}

function summary(files: ProcessedFile[]) {
  return files.map((f) => ({ type: f.contentType, width: f.width, height: f.height }));
}

const webpWidths = (widths: number[]) =>
  widths.map((width) => ({ type: "image/webp", width, height: width }));

describe("a photo upload", () => {
  it("is served as square WebP at every width it can fill, and one JPEG at the largest", async () => {
    const cases = [
      [fixtures.jpeg, [160, 320]],
      [fixtures.png, [160, 320, 640]],
      [fixtures.webp, [160, 320]],
      [fixtures.tiny, [160]],
    ] as const;
    for (const [input, widths] of cases) {
      const result = await processPhoto(input);
      if (!result.ok) throw new Error(result.error);
      const largest = widths[widths.length - 1]!;
      expect(summary(result.files)).toEqual([
        ...webpWidths([...widths]),
        { type: "image/jpeg", width: largest, height: largest },
      ]);
      for (const file of result.files) {
        const meta = await metadataOf(file.bytes);
        expect(meta.format).toBe(file.contentType === "image/webp" ? "webp" : "jpeg");
        expect([meta.width, meta.height]).toEqual([file.width, file.height]);
      }
    }
  });

  it("loses its EXIF, GPS position included, in every file", async () => {
    const input = await metadataOf(fixtures.jpeg);
    expect(input.exif).toBeDefined();
    // The GPS IFD's pointer tag (0x8825), in either byte order, and the camera's name.
    const exif = input.exif!;
    expect(
      exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])),
    ).toBe(true);
    expect(exif.includes("SpyCam")).toBe(true);

    const result = await processPhoto(fixtures.jpeg);
    if (!result.ok) throw new Error(result.error);
    for (const file of result.files) {
      const meta = await metadataOf(file.bytes);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(Buffer.from(file.bytes).includes("SpyCam")).toBe(false);
      expect(Buffer.from(file.bytes).includes("Jo Doe")).toBe(false);
    }
  });

  it("is turned upright by its EXIF orientation before it is cropped", async () => {
    const result = await processPhoto(fixtures.sideways);
    if (!result.ok) throw new Error(result.error);
    // 200 × 400 upright: only the smallest width fits.
    expect(summary(result.files)).toEqual([
      ...webpWidths([160]),
      { type: "image/jpeg", width: 160, height: 160 },
    ]);
    for (const file of result.files) {
      const top = await pixel(file.bytes, 80, 10);
      const bottom = await pixel(file.bytes, 80, 150);
      expect(top.r).toBeGreaterThan(150);
      expect(top.b).toBeLessThan(100);
      expect(bottom.b).toBeGreaterThan(150);
      expect(bottom.r).toBeLessThan(100);
    }
  });

  it("keeps transparency in WebP and shows white through it in the JPEG", async () => {
    const result = await processPhoto(fixtures.png);
    if (!result.ok) throw new Error(result.error);
    const webp = result.files.find((f) => f.contentType === "image/webp")!;
    const jpeg = result.files.find((f) => f.contentType === "image/jpeg")!;
    expect((await metadataOf(webp.bytes)).hasAlpha).toBe(true);
    expect((await metadataOf(jpeg.bytes)).hasAlpha).toBe(false);
    // Half-transparent green over white.
    const { r, g, b } = await pixel(jpeg.bytes, 10, 10);
    expect(g).toBeGreaterThan(180);
    expect(r).toBeGreaterThan(100);
    expect(b).toBeGreaterThan(100);
  });

  it("reads every pixel layout a camera or editor writes, and serves sRGB with no profile", async () => {
    const base = () => solid(400, 300, { r: 200, g: 100, b: 50, alpha: 0.7 }, 4);
    const inputs = {
      png16: await base().png().toColourspace("rgb16").toBuffer(),
      palette: await base().png({ palette: true }).toBuffer(),
      greyAlpha: await base().greyscale().png().toBuffer(),
      greyJpeg: await base().removeAlpha().greyscale().jpeg().toBuffer(),
      cmykJpeg: await base().removeAlpha().jpeg().toColourspace("cmyk").toBuffer(),
      displayP3: await base().removeAlpha().jpeg().withIccProfile("p3").toBuffer(),
    };
    expect((await metadataOf(inputs.displayP3)).icc).toBeDefined();
    for (const [name, bytes] of Object.entries(inputs)) {
      const result = await processPhoto(bytes);
      if (!result.ok) throw new Error(`${name}: ${result.error}`);
      for (const file of result.files) {
        const meta = await metadataOf(file.bytes);
        expect(meta.space, name).toBe("srgb");
        expect(meta.icc, name).toBeUndefined();
      }
    }
  });

  it("gives the same files for the same bytes", async () => {
    const first = await processPhoto(fixtures.jpeg);
    const second = await processPhoto(fixtures.jpeg);
    if (!first.ok || !second.ok) throw new Error("refused");
    expect(second.files.map((f) => Buffer.from(f.bytes))).toEqual(
      first.files.map((f) => Buffer.from(f.bytes)),
    );
  });

  it("refuses SVG by name, whichever way it is written", async () => {
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '\uFEFF  \n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<SVG width="10" height="10"></SVG>',
      '<!-- a comment --><svg\nwidth="1"/>',
    ]) {
      expectRefused(await processPhoto(Buffer.from(svg)), UPLOAD_TEXT.svg);
    }
  });

  it("refuses anything that is not a JPEG, PNG or WebP by its bytes, whatever it is called", async () => {
    const notAPhoto = uploadTypeText("photo");
    const inputs = {
      // An executable renamed me.jpg: the name is never read, the bytes are.
      elf: Buffer.from("\x7fELF\x02\x01\x01\0binary payload", "binary"),
      exe: Buffer.from("MZ\x90\0\x03\0\0\0 windows", "binary"),
      html: Buffer.from("<!doctype html><html><script>alert(1)</script></html>"),
      gif: await solid(20, 20).gif().toBuffer(),
      tiff: await solid(20, 20).tiff().toBuffer(),
      pdf: pdf(),
      text: Buffer.from("just some text"),
      empty: Buffer.alloc(0),
      // JPEG's magic bytes, then a header cut short and garbage: it claims JPEG but does not decode.
      garbage: Buffer.concat([fixtures.jpeg.subarray(0, 300), Buffer.alloc(2000, 0x55)]),
      // A real JPEG cut in half, as an interrupted copy leaves it.
      truncated: fixtures.jpeg.subarray(0, Math.floor(fixtures.jpeg.length / 2)),
      // A JPEG's magic bytes before a PNG.
      polyglot: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), fixtures.png]),
    };
    for (const [name, bytes] of Object.entries(inputs)) {
      expect(await processPhoto(bytes), name).toEqual({ ok: false, error: notAPhoto });
    }
  });

  it("refuses a file over the size limit before reading it", async () => {
    expect(UPLOAD_LIMITS.photo).toBe(5_000_000);
    // A real JPEG, padded past the limit by one byte.
    const padded = Buffer.concat([
      fixtures.bigPhotoJpeg,
      Buffer.alloc(UPLOAD_LIMITS.photo + 1 - fixtures.bigPhotoJpeg.length),
    ]);
    expectRefused(await processPhoto(padded), "The photo is larger than 5 MB.");
    expectRefused(
      await processPhoto(Buffer.alloc(UPLOAD_LIMITS.photo + 1, 0xff)),
      uploadTooLargeText("photo"),
    );
  });

  it("refuses a decompression bomb: a small file of too many pixels", async () => {
    expect(fixtures.huge.length).toBeLessThan(UPLOAD_LIMITS.photo);
    const meta = await metadataOf(fixtures.huge);
    expect(meta.width! * meta.height!).toBeGreaterThan(PHOTO_MAX_PIXELS);
    expectRefused(await processPhoto(fixtures.huge), "The photo is larger than 50 megapixels.");
  });
});

describe("a post's image", () => {
  const kinds = (files: ProcessedFile[]) =>
    files.map((f) => `${f.contentType} ${f.width}x${f.height}`);

  it("is served as WebP at each width it fills, plus its own format at the largest", async () => {
    const photo = await solid(4000, 3000).jpeg().toBuffer();
    const result = await processImage(photo);
    if (!result.ok) throw new Error(result.error);
    expect(kinds(result.files)).toEqual([
      "image/webp 480x360",
      "image/webp 800x600",
      "image/webp 1200x900",
      "image/webp 1600x1200",
      "image/jpeg 1600x1200",
    ]);
    for (const file of result.files) {
      const meta = await metadataOf(file.bytes);
      expect([meta.width, meta.height]).toEqual([file.width, file.height]);
    }
    expect(imageWidths(300)).toEqual([300]);
    expect(imageWidths(1000)).toEqual([480, 800, 1000]);
    expect(imageWidths(1600)).toEqual([480, 800, 1200, 1600]);
  });

  it("keeps a PNG's transparency in its fallback, and adds none to a WebP", async () => {
    const png = await processImage(fixtures.png);
    if (!png.ok) throw new Error(png.error);
    expect(kinds(png.files)).toEqual([
      "image/webp 480x480",
      "image/webp 700x700",
      "image/png 700x700",
    ]);
    expect((await metadataOf(png.files.at(-1)!.bytes)).hasAlpha).toBe(true);
    const webp = await processImage(fixtures.webp);
    if (!webp.ok) throw new Error(webp.error);
    expect(kinds(webp.files)).toEqual([
      "image/webp 480x320",
      "image/webp 800x533",
      "image/webp 900x600",
    ]);
    // What the editor inserts: the fallback (here the largest WebP), the WebP widths, its size.
    const image = postImageOf(webp.files.map((f, i) => ({ ...f, hash: String(i).repeat(64) })));
    expect(image).toEqual({
      src: `/media/${"2".repeat(64)}.webp`,
      srcset: `/media/${"0".repeat(64)}.webp 480w, /media/${"1".repeat(64)}.webp 800w, /media/${"2".repeat(64)}.webp 900w`,
      width: 900,
      height: 600,
    });
  });

  it("keeps an animated GIF animated, in WebP and in GIF", async () => {
    const frames = await Promise.all(
      [RED, BLUE, RED].map((colour) => solid(600, 400, colour).png().toBuffer()),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif({ delay: [100, 100, 100] })
      .toBuffer();
    expect((await metadataOf(gif)).pages).toBe(3);
    const result = await processImage(gif);
    if (!result.ok) throw new Error(result.error);
    expect(kinds(result.files)).toEqual([
      "image/webp 480x320",
      "image/webp 600x400",
      "image/gif 600x400",
    ]);
    for (const file of result.files) expect((await metadataOf(file.bytes)).pages).toBe(3);
  });

  it("loses its EXIF and is turned upright", async () => {
    const result = await processImage(fixtures.jpeg);
    if (!result.ok) throw new Error(result.error);
    for (const file of result.files) {
      const meta = await metadataOf(file.bytes);
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
    }
    const sideways = await processImage(fixtures.sideways);
    if (!sideways.ok) throw new Error(sideways.error);
    // 400×200 stored, shown as 200×400: red on top, blue below.
    expect(kinds(sideways.files)).toEqual(["image/webp 200x400", "image/jpeg 200x400"]);
    const jpeg = sideways.files.at(-1)!.bytes;
    expect((await pixel(jpeg, 100, 50)).r).toBeGreaterThan(150);
    expect((await pixel(jpeg, 100, 350)).b).toBeGreaterThan(150);
  });

  it("refuses SVG, markup, other types, oversized files and decompression bombs", async () => {
    const cases: [Uint8Array, string][] = [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), UPLOAD_TEXT.imageSvg],
      [Buffer.from('<?xml version="1.0"?>\n<!-- x -->\n<svg/>'), UPLOAD_TEXT.imageSvg],
      [Buffer.from("<html><body>hi</body></html>"), uploadTypeText("image")],
      [Buffer.from("\x7fELF\x02\x01\x01\0binary", "binary"), uploadTypeText("image")],
      [pdf(), uploadTypeText("image")],
      [
        Buffer.concat([fixtures.jpeg.subarray(0, 300), Buffer.alloc(2000, 0x55)]),
        uploadTypeText("image"),
      ],
      [Buffer.alloc(UPLOAD_LIMITS.image + 1, 0xff), uploadTooLargeText("image")],
      [fixtures.huge, UPLOAD_TEXT.imageTooManyPixels],
    ];
    for (const [bytes, error] of cases) expectRefused(await processImage(bytes), error);
    expect(uploadTypeText("image")).toBe("The image must be a JPEG, PNG, WebP or GIF image.");
    expect(uploadTooLargeText("image")).toBe("The image is larger than 10 MB.");
  });
});

describe("a CV upload", () => {
  it("is kept exactly as sent when its bytes are a PDF, up to the limit", async () => {
    for (const bytes of [pdf(), pdfOfSize(UPLOAD_LIMITS.cv)]) {
      const result = await processCv(bytes);
      if (!result.ok) throw new Error(result.error);
      expect(result.files).toHaveLength(1);
      expect(result.files[0]).toMatchObject({ contentType: "application/pdf", width: null });
      expect(Buffer.from(result.files[0]!.bytes).equals(bytes)).toBe(true);
    }
  });

  it("refuses anything else, whatever it is called, and anything over 10 MB", async () => {
    const notAPdf = "The CV must be a PDF.";
    for (const bytes of [
      Buffer.from("\x7fELF\x02\x01\x01\0binary payload", "binary"),
      Buffer.from("MZ\x90\0\x03\0\0\0 not a pdf", "binary"),
      fixtures.jpeg,
      Buffer.from("<html>%PDF-1.4</html>"),
      Buffer.from("PDF-1.4 but no percent sign"),
      Buffer.alloc(0),
    ]) {
      expect(await processCv(bytes)).toEqual({ ok: false, error: notAPdf });
    }
    expect(await processCv(pdfOfSize(UPLOAD_LIMITS.cv + 1))).toEqual({
      ok: false,
      error: "The CV is larger than 10 MB.",
    });
  });
});

/** What the admin page's action does with an upload: check it, then store what passed. */
async function upload(database: TestDatabase, kind: UploadKind, bytes: Uint8Array) {
  const processed = kind === "photo" ? await processPhoto(bytes) : await processCv(bytes);
  return processed.ok ? storeMedia(database.db, kind, processed.files) : processed.error;
}

const countRows = async (database: TestDatabase) =>
  (
    await queryRows<{ purpose: string; n: number }>(
      database.db,
      "select purpose, count(*)::int as n from media group by purpose order by purpose",
    )
  ).reduce<Record<string, number>>((counts, row) => ({ ...counts, [row.purpose]: row.n }), {});

/** The photo a profile stores for uploaded files (as the admin action makes it). */
const photoOf = (
  files: { hash: string; contentType: string; width: number | null; height: number | null }[],
) => ({
  files: files.map((f) => ({
    hash: f.hash,
    type: f.contentType as "image/webp" | "image/jpeg",
    width: f.width!,
    height: f.height!,
  })),
});

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`stored media on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("keeps each file once under its SHA-256, however often it is uploaded", async () => {
      const first = await upload(database, "photo", fixtures.jpeg);
      const second = await upload(database, "photo", fixtures.jpeg);
      if (typeof first === "string" || typeof second === "string") throw new Error("refused");
      expect(second).toEqual(first);
      expect(first.map((f) => [f.contentType, f.width, f.height])).toEqual([
        ["image/webp", 160, 160],
        ["image/webp", 320, 320],
        ["image/jpeg", 320, 320],
      ]);
      expect(await countRows(database)).toEqual({ photo: 3 });

      for (const stored of first) {
        expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
        const row = await readMedia(database.db, stored.hash);
        expect(row).toMatchObject({
          hash: stored.hash,
          contentType: stored.contentType,
          size: stored.size,
          width: stored.width,
          height: stored.height,
          purpose: "photo",
        });
        expect(row!.bytes.byteLength).toBe(stored.size);
        expect(createHash("sha256").update(row!.bytes).digest("hex")).toBe(stored.hash);
      }
      expect(await readMedia(database.db, "0".repeat(64))).toBeUndefined();
    });

    it("stores nothing from a refused upload", async () => {
      const refused: [UploadKind, Uint8Array][] = [
        ["photo", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
        ["photo", Buffer.from("\x7fELF\x02\x01\x01\0", "binary")],
        ["photo", Buffer.alloc(UPLOAD_LIMITS.photo + 1, 0xff)],
        ["photo", Buffer.concat([fixtures.jpeg.subarray(0, 300), Buffer.alloc(2000, 0x55)])],
        ["photo", fixtures.huge],
        ["cv", Buffer.from("MZ\x90\0 not a pdf", "binary")],
        ["cv", pdfOfSize(UPLOAD_LIMITS.cv + 1)],
      ];
      for (const [kind, bytes] of refused) {
        expect(typeof (await upload(database, kind, bytes))).toBe("string");
      }
      expect(await countRows(database)).toEqual({});
    });

    it("drops the replaced photo's or CV's files when it is replaced or removed", async () => {
      await ensureProfile(database.db, SEED_PROFILE);
      const oldPhoto = await upload(database, "photo", fixtures.jpeg);
      const newPhoto = await upload(database, "photo", fixtures.webp);
      const cv = await upload(database, "cv", pdf());
      if (typeof oldPhoto === "string" || typeof newPhoto === "string" || typeof cv === "string") {
        throw new Error("refused");
      }
      expect(await countRows(database)).toEqual({ cv: 1, photo: 6 });

      expect(await replacePhoto(database.db, photoOf(oldPhoto))).toBe(0);
      expect(await replacePhoto(database.db, photoOf(newPhoto))).toBe(3);
      expect(await countRows(database)).toEqual({ cv: 1, photo: 3 });
      for (const f of oldPhoto) expect(await readMedia(database.db, f.hash)).toBeUndefined();
      for (const f of newPhoto) expect(await readMedia(database.db, f.hash)).toBeDefined();

      expect(await replacePhoto(database.db, null)).toBe(3);
      expect(await countRows(database)).toEqual({ cv: 1 });
      const cvFile = { hash: cv[0]!.hash, size: cv[0]!.size };
      expect(await replaceCv(database.db, cvFile)).toBe(0);
      expect(await replaceCv(database.db, cvFile)).toBe(0);
      expect(await replaceCv(database.db, null)).toBe(1);
      expect(await countRows(database)).toEqual({});
    });

    it("two photo uploads at once never leave the profile pointing at dropped files", async () => {
      await ensureProfile(database.db, SEED_PROFILE);
      // Both uploads store their files before either is made the photo (the action's order).
      const a = await upload(database, "photo", fixtures.jpeg);
      const b = await upload(database, "photo", fixtures.webp);
      if (typeof a === "string" || typeof b === "string") throw new Error("refused");
      await Promise.all([
        replacePhoto(database.db, photoOf(a)),
        replacePhoto(database.db, photoOf(b)),
      ]);
      const current = (await getProfile(database.db))?.photo;
      expect(current).toBeTruthy();
      for (const file of current!.files) {
        expect(await readMedia(database.db, file.hash), file.hash).toBeDefined();
      }
    });
  });
}

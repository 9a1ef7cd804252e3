/**
 * The files made from a checked picture (./processing.server.ts checks it and runs these in
 * their turn). Each upload is decoded once: its pixels are read into one raw buffer (upright,
 * at the largest width served), and every width and format is encoded from that buffer, which
 * carries no metadata. No withMetadata/keepExif anywhere: sharp writes no metadata unless told to.
 */

import type Sharp from "sharp";
import type { Metadata, OutputInfo } from "sharp";

import { loadSharp } from "~/lib/sharp.server";

import { ANIMATION_MAX_PIXELS, PHOTO_MAX_PIXELS, type MediaType } from "./uploads";

/** One file ready to store: its bytes, their type, and a photo's dimensions. */
export type ProcessedFile = {
  contentType: MediaType;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
};

/**
 * How sharp reads an upload. `failOn: "warning"` (its default, named here because it matters):
 * a truncated or corrupt file is refused rather than decoded into grey. The pixel limit is
 * checked against the header first (./processing.server.ts), so this one is a second guard.
 */
export const DECODE = { failOn: "warning", limitInputPixels: PHOTO_MAX_PIXELS } as const;

/** Encoder settings: sharp's defaults, and mozjpeg for the JPEG (smaller at the same quality). */
const WEBP_OPTIONS = { quality: 80 } as const;
const JPEG_OPTIONS = { quality: 85, mozjpeg: true } as const;
/** What a transparent picture's JPEG shows through (JPEG has no transparency). */
const JPEG_BACKGROUND = "#ffffff";

type Decoded = { data: Buffer; info: OutputInfo };

/**
 * Pixels sharp wrote raw, read back: their layout, and each frame's height for an animation
 * (read as one, so a resize scales every frame). Raw output is never premultiplied, whatever
 * its info's `premultiplied` says of the steps that made it: passing that on doubles colours.
 */
function pixelsOf(sharp: typeof Sharp, { data, info }: Decoded) {
  const { width, height, channels } = info;
  const pageHeight = info.pageHeight && info.pageHeight < height ? info.pageHeight : undefined;
  return () =>
    pageHeight
      ? sharp(data, { raw: { width, height, channels, pageHeight }, animated: true })
      : sharp(data, { raw: { width, height, channels } });
}

/** A converted file with the dimensions its encoder reported (one frame's, for animations). */
function fileOf(contentType: MediaType, { data, info }: Decoded): ProcessedFile {
  return { contentType, bytes: data, width: info.width, height: info.pageHeight ?? info.height };
}

/**
 * A photo's files: square WebP at each of `widths` and one JPEG at the largest. Decoded once,
 * turned upright (EXIF orientation) and cropped to a centred square at the largest width.
 * Throws when the bytes do not decode.
 */
export async function photoFiles(bytes: Uint8Array, widths: number[]): Promise<ProcessedFile[]> {
  const largest = widths[widths.length - 1]!;
  const sharp = await loadSharp();
  const pixels = pixelsOf(
    sharp,
    await sharp(bytes, DECODE)
      .rotate()
      .resize(largest, largest, { fit: "cover" })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const files: ProcessedFile[] = [];
  for (const size of widths) {
    const webp = await pixels().resize(size, size).webp(WEBP_OPTIONS).toBuffer();
    files.push({ contentType: "image/webp", bytes: webp, width: size, height: size });
  }
  const jpeg = await pixels()
    .flatten({ background: JPEG_BACKGROUND })
    .jpeg(JPEG_OPTIONS)
    .toBuffer();
  files.push({ contentType: "image/jpeg", bytes: jpeg, width: largest, height: largest });
  return files;
}

/**
 * A still image's files: WebP at each of `widths`, and the upload's own format at the largest
 * (none for a WebP upload: its largest WebP is that). Decoded once (JPEG shrinks while
 * decoding), turned upright, at the largest width. Throws when the bytes do not decode.
 */
export async function stillImageFiles(
  bytes: Uint8Array,
  widths: number[],
  fallbackType: string,
): Promise<ProcessedFile[]> {
  const sharp = await loadSharp();
  const pixels = pixelsOf(
    sharp,
    await sharp(bytes, DECODE)
      .rotate()
      .resize({ width: widths[widths.length - 1]! })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const files: ProcessedFile[] = [];
  for (const size of widths) {
    const webp = pixels().resize({ width: size }).webp(WEBP_OPTIONS);
    files.push(fileOf("image/webp", await webp.toBuffer({ resolveWithObject: true })));
  }
  const fallback =
    fallbackType === "image/jpeg"
      ? pixels().flatten({ background: JPEG_BACKGROUND }).jpeg(JPEG_OPTIONS)
      : fallbackType === "image/png"
        ? pixels().png()
        : fallbackType === "image/gif"
          ? pixels().gif()
          : null;
  if (fallback) {
    const encoded = await fallback.toBuffer({ resolveWithObject: true });
    files.push(fileOf(fallbackType as MediaType, encoded));
  }
  return files;
}

/**
 * An animation's files: animated WebP at each of `widths`, and an animated GIF at the largest
 * for a GIF upload. Every frame is decoded once, at the largest width, into one raw buffer
 * (at most ANIMATION_MAX_PIXELS frames × pixels, checked from the header before this runs);
 * each file is encoded from it with the upload's frame delays and loop count, which raw pixels
 * do not carry. Throws when the bytes do not decode.
 */
export async function animatedImageFiles(
  bytes: Uint8Array,
  header: Metadata,
  widths: number[],
  fallbackType: string,
): Promise<ProcessedFile[]> {
  const largest = widths[widths.length - 1]!;
  const sharp = await loadSharp();
  const pixels = pixelsOf(
    sharp,
    await sharp(bytes, { ...DECODE, animated: true, limitInputPixels: ANIMATION_MAX_PIXELS })
      .resize({ width: largest })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const timing = {
    ...(header.delay ? { delay: header.delay } : {}),
    ...(header.loop !== undefined ? { loop: header.loop } : {}),
  };
  const files: ProcessedFile[] = [];
  for (const size of widths) {
    const webp = pixels()
      .resize({ width: size })
      .webp({ ...WEBP_OPTIONS, ...timing });
    files.push(fileOf("image/webp", await webp.toBuffer({ resolveWithObject: true })));
  }
  if (fallbackType === "image/gif") {
    const gif = await pixels().gif(timing).toBuffer({ resolveWithObject: true });
    files.push(fileOf("image/gif", gif));
  }
  return files;
}

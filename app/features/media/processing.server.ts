/**
 * The checks and conversions an upload passes before it is kept (./store.server.ts keeps it).
 *
 * An upload is untrusted bytes. Its type comes from its content alone (never the file's name or
 * the type the browser claimed), its size is capped before anything reads it, and a photo is
 * decoded and encoded again, so what is served is pixels this server wrote: no EXIF (GPS
 * position, camera serial), no ICC or XMP, nothing appended after the image.
 */

import { fileTypeFromBuffer } from "file-type";
import sharp, { type Metadata, type OutputInfo } from "sharp";

import {
  IMAGE_WIDTHS,
  PHOTO_MAX_PIXELS,
  PHOTO_WIDTHS,
  UPLOAD_LIMITS,
  UPLOAD_TEXT,
  uploadTooLargeText,
  uploadTypeText,
  type MediaType,
} from "./uploads";

/** One file ready to store: its bytes, their type, and a photo's dimensions. */
export type ProcessedFile = {
  contentType: MediaType;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
};

export type ProcessResult = { ok: true; files: ProcessedFile[] } | { ok: false; error: string };

type Refusal = { ok: false; error: string };
const refuse = (error: string): Refusal => ({ ok: false, error });

/**
 * The photo types accepted, as file-type names them, and the decoder sharp must find for each:
 * sharp picks its decoder from the bytes too, so both have to agree before the photo is read.
 * An animated PNG is a PNG whose first frame every decoder shows.
 */
const PHOTO_DECODERS: Record<string, string> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/apng": "png",
  "image/webp": "webp",
};

/** The post image types accepted, with sharp's decoder for each (as PHOTO_DECODERS). */
const IMAGE_DECODERS: Record<string, string> = { ...PHOTO_DECODERS, "image/gif": "gif" };

/** Encoder settings: sharp's defaults, and mozjpeg for the JPEG (smaller at the same quality). */
const WEBP_OPTIONS = { quality: 80 } as const;
const JPEG_OPTIONS = { quality: 85, mozjpeg: true } as const;
/** What a transparent photo's JPEG shows through (JPEG has no transparency). */
const JPEG_BACKGROUND = "#ffffff";

/**
 * How sharp reads an upload. `failOn: "warning"` (its default, named here because it matters):
 * a truncated or corrupt file is refused rather than decoded into grey. The pixel limit is
 * checked against the header first (processPhoto), so this one is a second guard.
 */
const DECODE = { failOn: "warning", limitInputPixels: PHOTO_MAX_PIXELS } as const;

/** How far into a file to look for SVG's root element (past an XML prolog, comments, a doctype). */
const MARKUP_SNIFF_BYTES = 4096;

/**
 * Text starting with `<` (after a byte-order mark or whitespace): markup, never a photo, and
 * `svg` when it is SVG. file-type reports SVG text as nothing, or as `application/xml` when it
 * has a prolog, so it is caught here by its content and named in the refusal.
 */
function sniffMarkup(bytes: Uint8Array): { markup: boolean; svg: boolean } {
  const head = new TextDecoder("utf-8").decode(bytes.subarray(0, MARKUP_SNIFF_BYTES));
  const text = head.replace(/^\uFEFF/, "").trimStart();
  if (!text.startsWith("<")) return { markup: false, svg: false };
  return { markup: true, svg: /<svg[\s>/]/i.test(text) };
}

/**
 * The widths a photo is served in: each of PHOTO_WIDTHS its shorter side can fill (no
 * enlarging), but always the smallest, which the home page needs whatever was uploaded.
 */
export function photoWidths(shorterSide: number): number[] {
  const fitting = PHOTO_WIDTHS.filter((width) => width <= shorterSide);
  return fitting.length > 0 ? fitting : [PHOTO_WIDTHS[0]];
}

/** What the checks below find in an upload that is a picture they accept. */
type Picture = {
  ok: true;
  mime: string;
  header: Metadata & { width: number; height: number };
  /** Frames counted against the pixel limit: 1 for a photo, every frame of a post's image. */
  pages: number;
};

/**
 * The checks every picture upload passes before a pixel is decoded: the size limit, no markup
 * (SVG named as such), a type its bytes prove and sharp agrees with, and the pixel limit read
 * from the header alone. Each refusal carries the text the owner sees for that kind.
 */
async function checkPicture(
  bytes: Uint8Array,
  kind: "photo" | "image",
): Promise<Picture | Refusal> {
  if (bytes.byteLength > UPLOAD_LIMITS[kind]) return refuse(uploadTooLargeText(kind));
  const wrongType = uploadTypeText(kind);
  const svg = kind === "photo" ? UPLOAD_TEXT.svg : UPLOAD_TEXT.imageSvg;
  // SVG must never reach sharp: its decoder (librsvg) renders a document, with entities and
  // references to other files, which is no picture and an attack surface a picture does not need.
  const markup = sniffMarkup(bytes);
  if (markup.svg) return refuse(svg);
  if (markup.markup) return refuse(wrongType);
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.mime === "image/svg+xml") return refuse(svg);
  const decoder = detected
    ? (kind === "photo" ? PHOTO_DECODERS : IMAGE_DECODERS)[detected.mime]
    : undefined;
  if (!decoder) return refuse(wrongType);
  try {
    // The header only: the dimensions are known before a single pixel is decoded.
    const header = await sharp(bytes, { ...DECODE, limitInputPixels: false }).metadata();
    if (header.format !== decoder || !header.width || !header.height) return refuse(wrongType);
    const animated = kind === "image" && (decoder === "gif" || decoder === "webp");
    const pages = animated ? (header.pages ?? 1) : 1;
    if (header.width * header.height * pages > PHOTO_MAX_PIXELS) {
      return refuse(kind === "photo" ? UPLOAD_TEXT.tooManyPixels : UPLOAD_TEXT.imageTooManyPixels);
    }
    return {
      ok: true,
      mime: detected!.mime,
      header: header as Picture["header"],
      pages,
    };
  } catch {
    return refuse(wrongType);
  }
}

/**
 * A photo upload, checked and converted: square WebP files at each of `photoWidths` (smallest
 * first) and one JPEG at the largest of them (share cards and JSON Resume want JPEG or PNG).
 * Refuses, with the text the owner sees, a file over the size limit, SVG, anything not a JPEG,
 * PNG or WebP by its bytes or that does not decode, and an image of more than PHOTO_MAX_PIXELS.
 */
export async function processPhoto(bytes: Uint8Array): Promise<ProcessResult> {
  const checked = await checkPicture(bytes, "photo");
  if (!checked.ok) return checked;
  const notAPhoto = uploadTypeText("photo");
  const side = Math.min(checked.header.width, checked.header.height);

  const widths = photoWidths(side);
  const largest = widths[widths.length - 1]!;
  let square: { data: Buffer; info: OutputInfo };
  try {
    // Decoded once, turned upright (EXIF orientation), cropped to a centred square at the
    // largest width; every file is then made from these raw pixels, which carry no metadata.
    square = await sharp(bytes, DECODE)
      .rotate()
      .resize(largest, largest, { fit: "cover" })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    // A file that claims to be a JPEG, PNG or WebP but does not decode: the owner's problem to
    // fix (another file), not a server error.
    return refuse(notAPhoto);
  }
  const { width, height, channels } = square.info;
  const pixels = () => sharp(square.data, { raw: { width, height, channels } });

  // No withMetadata/keepExif anywhere: sharp writes no metadata unless told to.
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
  return { ok: true, files };
}

/**
 * The widths a post's image is served in: each of IMAGE_WIDTHS it can fill (no enlarging), and
 * its own width when that is narrower than the largest, so the sharpest file is never lost.
 */
export function imageWidths(width: number): number[] {
  const largest = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  const top = Math.min(width, largest);
  return [...IMAGE_WIDTHS.filter((candidate) => candidate < top), top];
}

/**
 * An image for a post, checked and converted: WebP files at each of `imageWidths` (smallest
 * first), then one file in the upload's own format at the largest width for browsers without
 * WebP (none is added for a WebP upload: its largest WebP is that). An animated GIF stays
 * animated in both. Refuses, with the text the owner sees, a file over the size limit, SVG,
 * anything not a JPEG, PNG, WebP or GIF by its bytes or that does not decode, and an image of
 * more than PHOTO_MAX_PIXELS. Like a photo, it is decoded and encoded again: no metadata stays.
 */
export async function processImage(bytes: Uint8Array): Promise<ProcessResult> {
  const checked = await checkPicture(bytes, "image");
  if (!checked.ok) return checked;
  const { header, mime, pages } = checked;
  // A photo taken sideways is stored upright: its served width is its height.
  const width = (header.orientation ?? 1) >= 5 ? header.height : header.width;

  const widths = imageWidths(width);
  const fallbackType = mime === "image/apng" ? "image/png" : mime;
  try {
    const files =
      pages > 1
        ? await animatedImageFiles(bytes, widths, fallbackType)
        : await stillImageFiles(bytes, widths, fallbackType);
    return { ok: true, files };
  } catch {
    return refuse(uploadTypeText("image"));
  }
}

/** An animation's files: WebP at each width, and a GIF at the largest for a GIF upload. */
async function animatedImageFiles(
  bytes: Uint8Array,
  widths: number[],
  fallbackType: string,
): Promise<ProcessedFile[]> {
  // Frames cannot go through one raw buffer: each file is made from the upload itself.
  const frames = (size: number) =>
    sharp(bytes, { ...DECODE, animated: true }).resize({ width: size });
  const files: ProcessedFile[] = [];
  for (const size of widths) {
    const { data, info } = await frames(size)
      .webp(WEBP_OPTIONS)
      .toBuffer({ resolveWithObject: true });
    files.push(fileOf("image/webp", data, info));
  }
  if (fallbackType === "image/gif") {
    const largest = widths[widths.length - 1]!;
    const { data, info } = await frames(largest).gif().toBuffer({ resolveWithObject: true });
    files.push(fileOf("image/gif", data, info));
  }
  return files;
}

/** A still image's files: WebP at each width, and the upload's own format at the largest. */
async function stillImageFiles(
  bytes: Uint8Array,
  widths: number[],
  fallbackType: string,
): Promise<ProcessedFile[]> {
  // Decoded once (JPEG shrinks while decoding), turned upright, at the largest width; every
  // file is then made from these raw pixels, which carry no metadata.
  const decoded = await sharp(bytes, DECODE)
    .rotate()
    .resize({ width: widths[widths.length - 1]! })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = decoded.info;
  const pixels = () =>
    sharp(decoded.data, {
      raw: { width: raw.width, height: raw.height, channels: raw.channels },
    });
  const files: ProcessedFile[] = [];
  for (const size of widths) {
    const { data, info } = await pixels()
      .resize({ width: size })
      .webp(WEBP_OPTIONS)
      .toBuffer({ resolveWithObject: true });
    files.push(fileOf("image/webp", data, info));
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
    const { data, info } = await fallback.toBuffer({ resolveWithObject: true });
    files.push(fileOf(fallbackType as MediaType, data, info));
  }
  return files;
}

/** A converted file with the dimensions its encoder reported (one frame's, for animations). */
function fileOf(contentType: MediaType, data: Buffer, info: OutputInfo): ProcessedFile {
  return {
    contentType,
    bytes: data,
    width: info.width,
    height: info.pageHeight ?? info.height,
  };
}

/**
 * A CV upload, checked: a PDF by its bytes (a renamed executable or anything else is refused),
 * within the size limit. Stored as sent: a PDF is not rewritten here.
 */
export async function processCv(bytes: Uint8Array): Promise<ProcessResult> {
  if (bytes.byteLength > UPLOAD_LIMITS.cv) return refuse(uploadTooLargeText("cv"));
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.mime !== "application/pdf") return refuse(uploadTypeText("cv"));
  return {
    ok: true,
    files: [{ contentType: "application/pdf", bytes, width: null, height: null }],
  };
}

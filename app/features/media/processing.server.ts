/**
 * The checks and conversions an upload passes before it is kept (./store.server.ts keeps it).
 *
 * An upload is untrusted bytes. Its type comes from its content alone (never the file's name or
 * the type the browser claimed), its size is capped before anything reads it, and a photo is
 * decoded and encoded again, so what is served is pixels this server wrote: no EXIF (GPS
 * position, camera serial), no ICC or XMP, nothing appended after the image.
 *
 * The checks read headers only and run at once; the decoding and encoding run one upload at a
 * time in this process, in a queue with a few places (./queue.server.ts), so uploads never decode
 * side by side and a flood of them is answered "busy" at once. Every pixel, and sharp itself, is
 * in the image thread (./image-thread.server.ts), never on the thread that answers requests.
 */

// file-type is loaded with the server, not by the first upload: importing it holds the event
// loop for one stretch of about 50 ms, which held /healthz and cached pages past 100 ms at the
// first upload (tests/load/owner-actions.test.ts).
import { fileTypeFromBuffer } from "file-type";

import { createImageThread, type ImageHeader, type ProcessedFile } from "./image-thread.server";
import { createJobQueue } from "./queue.server";
import {
  ANIMATION_MAX_PIXELS,
  IMAGE_WIDTHS,
  PHOTO_MAX_PIXELS,
  PROCESSING_MAX_WAITING,
  PROCESSING_RETRY_MS,
  PHOTO_WIDTHS,
  UPLOAD_LIMITS,
  UPLOAD_TEXT,
  uploadTooLargeText,
  uploadTypeText,
} from "./uploads";

export type { ProcessedFile } from "./image-thread.server";

/**
 * An upload refused: the text the owner sees, and `busy` when it was not even looked at because
 * the server is processing other images (see `refusalAnswer`).
 */
export type Refusal = { ok: false; error: string; busy?: true };
export type ProcessResult = { ok: true; files: ProcessedFile[] } | Refusal;

const refuse = (error: string): Refusal => ({ ok: false, error });

/**
 * The HTTP status and headers of a refusal: 503 with Retry-After when the server was busy (the
 * same file will be accepted later), 400 otherwise (this file never will).
 */
export const refusalAnswer = (
  refusal: Refusal,
): { status: 400 | 503; headers: Record<string, string> } =>
  refusal.busy
    ? {
        status: 503,
        headers: { "Retry-After": String(Math.ceil(PROCESSING_RETRY_MS / 1000)) },
      }
    : { status: 400, headers: {} };

/** The image pipeline's turns: one job at a time in this process, a few waiting (./queue.server.ts). */
const processing = createJobQueue(PROCESSING_MAX_WAITING);
/** Where sharp reads, decodes and encodes: a thread of its own, started by the first upload. */
const images = createImageThread();

/** Runs the decoding and encoding in its turn, or refuses at once when too many wait. */
async function inTurn(work: () => Promise<ProcessResult>): Promise<ProcessResult> {
  const queued = await processing.run(work);
  return queued.ok ? queued.value : { ok: false, error: UPLOAD_TEXT.busy, busy: true };
}

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
  header: ImageHeader & { width: number; height: number };
  /** Its frames: 1 for a photo or a still image, every frame of a post's animation. */
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
    // The header only: the dimensions and the frame count are known before a single pixel is
    // decoded (for a GIF, its frames' headers are scanned, their pixels are not decompressed).
    const header = await images.run("header", bytes);
    if (header.format !== decoder || !header.width || !header.height) return refuse(wrongType);
    const animated = kind === "image" && (decoder === "gif" || decoder === "webp");
    const pages = animated ? (header.pages ?? 1) : 1;
    if (header.width * header.height > PHOTO_MAX_PIXELS) {
      return refuse(kind === "photo" ? UPLOAD_TEXT.tooManyPixels : UPLOAD_TEXT.imageTooManyPixels);
    }
    if (pages > 1 && header.width * header.height * pages > ANIMATION_MAX_PIXELS) {
      return refuse(UPLOAD_TEXT.animationTooManyPixels);
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
  const side = Math.min(checked.header.width, checked.header.height);
  return inTurn(async () => {
    try {
      return { ok: true, files: await images.run("photo", bytes, photoWidths(side)) };
    } catch {
      // A file that claims to be a JPEG, PNG or WebP but does not decode: the owner's problem
      // to fix (another file), not a server error.
      return refuse(uploadTypeText("photo"));
    }
  });
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
 * anything not a JPEG, PNG, WebP or GIF by its bytes or that does not decode, an image of more
 * than PHOTO_MAX_PIXELS and an animation of more than ANIMATION_MAX_PIXELS over all its frames.
 * Like a photo, it is decoded (once) and encoded again: no metadata stays.
 */
export async function processImage(bytes: Uint8Array): Promise<ProcessResult> {
  const checked = await checkPicture(bytes, "image");
  if (!checked.ok) return checked;
  const { header, mime, pages } = checked;
  // A photo taken sideways is stored upright: its served width is its height.
  const width = (header.orientation ?? 1) >= 5 ? header.height : header.width;

  const widths = imageWidths(width);
  const fallbackType = mime === "image/apng" ? "image/png" : mime;
  return inTurn(async () => {
    try {
      const files =
        pages > 1
          ? await images.run("animated", bytes, header, widths, fallbackType)
          : await images.run("still", bytes, widths, fallbackType);
      return { ok: true, files };
    } catch {
      return refuse(uploadTypeText("image"));
    }
  });
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

/**
 * The owner's uploads, owned here and shared by the admin page's file inputs (browser), the
 * upload pipeline (./processing.server.ts) and the media route: the limits, the accepted
 * types, the sizes a photo is served in, the files' URLs, and every text the owner sees. The
 * bounds' and types' texts are built from the constants, so they cannot drift apart.
 *
 * Plain TypeScript with no server imports: the admin page checks a file's size in the browser
 * before sending it, and the home page builds the photo's URLs with `mediaUrl`.
 */

import { formatBytes, formatCount, formatDuration, SECOND_MS } from "~/lib/format";

export type UploadKind = "photo" | "cv" | "image";

/**
 * The largest file accepted, in bytes: a phone's full-size photo fits in 5 MB, a CV or a post's
 * image (a screenshot, a diagram, an animated GIF) in 10 MB. The server's body limits for the
 * admin page and the image API are built from these (app/route-policy.ts).
 */
export const UPLOAD_LIMITS = {
  photo: 5 * 1000 ** 2,
  cv: 10 * 1000 ** 2,
  image: 10 * 1000 ** 2,
} as const satisfies Record<UploadKind, number>;

/**
 * The largest photo decoded, in pixels (width × height): a small file can declare a huge image
 * (a decompression bomb) whose pixels would take gigabytes of memory to decode. 50 megapixels
 * still takes a 48-megapixel phone camera's full-size photo (8000 × 6000).
 */
export const PHOTO_MAX_PIXELS = 50 * 1000 ** 2;

/**
 * The most pixels an animation (a post's GIF or WebP) may have over all its frames, frames ×
 * width × height, read from its header before a frame is decoded: every frame is decoded and
 * held at once while its files are made. 25 megapixels is 25 frames of 1000 × 1000 or 100 of
 * 500 × 500, and at most 100 MB of pixels in memory.
 */
export const ANIMATION_MAX_PIXELS = 25 * 1000 ** 2;

/**
 * Image uploads (photos and post images) are decoded and encoded one at a time per server
 * instance; this many more may wait their turn, and an upload past them is answered at once
 * that the server is busy (503), with a Retry-After of PROCESSING_RETRY_MS.
 */
export const PROCESSING_MAX_WAITING = 4;
export const PROCESSING_RETRY_MS = 5 * SECOND_MS;
/**
 * The thread that decodes and encodes images is stopped after this long without an upload,
 * which gives its memory back; the next upload starts another (docs/decisions/058-image-work-in-a-thread.md).
 */
export const IMAGE_THREAD_IDLE_MS = 30 * SECOND_MS;

/**
 * The square sizes a photo is served in, smallest first: the home page shows it at 160 × 160
 * CSS pixels (PHOTO_SIZE, app/features/site/site.ts), so 1×, 2× and 4× screens each get a file that fits.
 */
export const PHOTO_WIDTHS = [160, 320, 640] as const;

/**
 * The widths a post's image is served in, smallest first: the reader's column is 768 CSS pixels
 * wide at most, so a phone (about 400 px at 1-3×) and a laptop (768 px at 1-2×) each get a file
 * close to what they draw. An image narrower than a width is not enlarged to it.
 */
export const IMAGE_WIDTHS = [480, 800, 1200, 1600] as const;

/** The `sizes` of a post's image: the reader's column, or the whole screen below it. */
export const IMAGE_SIZES = "(min-width: 48rem) 48rem, 100vw";

/** What each kind accepts: the type detected from the file's bytes, its name in texts, its extensions. */
export const UPLOAD_TYPES = {
  photo: [
    { type: "image/jpeg", name: "JPEG", extensions: [".jpg", ".jpeg"] },
    { type: "image/png", name: "PNG", extensions: [".png"] },
    { type: "image/webp", name: "WebP", extensions: [".webp"] },
  ],
  cv: [{ type: "application/pdf", name: "PDF", extensions: [".pdf"] }],
  image: [
    { type: "image/jpeg", name: "JPEG", extensions: [".jpg", ".jpeg"] },
    { type: "image/png", name: "PNG", extensions: [".png"] },
    { type: "image/webp", name: "WebP", extensions: [".webp"] },
    { type: "image/gif", name: "GIF", extensions: [".gif"] },
  ],
} as const;

/**
 * The file inputs' `accept`: a convenience for the file picker only (the server checks the
 * bytes). Extensions as well as types, since some systems pick files by extension alone.
 */
export const UPLOAD_ACCEPT = Object.fromEntries(
  Object.entries(UPLOAD_TYPES).map(([kind, types]) => [
    kind,
    types.flatMap(({ type, extensions }) => [type, ...extensions]).join(","),
  ]),
) as Record<UploadKind, string>;

/**
 * The types served at /media, each with the one extension its URL carries: what the pipeline
 * stores (WebP and JPEG photo sizes, the PDF CV), and PNG, which a photo may arrive as.
 */
export const MEDIA_EXTENSIONS = {
  "image/webp": "webp",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "application/pdf": "pdf",
} as const;

export type MediaType = keyof typeof MEDIA_EXTENSIONS;

/** A stored file's address: its content's SHA-256 and the extension of its type. */
export const mediaUrl = (hash: string, contentType: MediaType) =>
  `/media/${hash}.${MEDIA_EXTENSIONS[contentType]}`;

const MEDIA_FILE = /^([0-9a-f]{64})\.([a-z]+)$/;

/** The hash and type a /media file name asks for, or null when it is not one `mediaUrl` makes. */
export function parseMediaFile(file: string): { hash: string; contentType: MediaType } | null {
  const match = MEDIA_FILE.exec(file);
  if (!match) return null;
  const [, hash, extension] = match as unknown as [string, string, string];
  const entry = Object.entries(MEDIA_EXTENSIONS).find(([, ext]) => ext === extension);
  return entry ? { hash, contentType: entry[0] as MediaType } : null;
}

const MEDIA_IMAGE = "/media/[0-9a-f]{64}\\.(?:webp|jpg|png|gif)";
const MEDIA_IMAGE_SRC = new RegExp(`^${MEDIA_IMAGE}$`);
const MEDIA_IMAGE_CANDIDATE = new RegExp(`^${MEDIA_IMAGE} [1-9][0-9]{0,4}w$`);

/** Whether a post image's `src` is one of this site's uploads (nothing else is shown). */
export const isMediaImageSrc = (src: string) => MEDIA_IMAGE_SRC.test(src);

/** Whether a `srcset` lists only this site's uploads, each with a width ("/media/….webp 480w"). */
export const isMediaImageSrcset = (srcset: string) =>
  srcset
    .split(",")
    .every((candidate) => MEDIA_IMAGE_CANDIDATE.test(candidate.trim().replace(/\s+/g, " ")));

/** "JPEG, PNG or WebP": a kind's accepted types as the texts name them. */
const typeNames = (kind: UploadKind) => {
  const names: string[] = UPLOAD_TYPES[kind].map((t) => t.name);
  const last = names.pop();
  return names.length ? `${names.join(", ")} or ${last}` : `${last}`;
};

/** How the texts call each kind. */
const UPLOAD_NOUNS = { photo: "photo", cv: "CV", image: "image" } as const satisfies Record<
  UploadKind,
  string
>;

export const UPLOAD_TEXT = {
  noFile: "Choose a file to upload.",
  // SVG is refused by name: it is a picture to the owner, but a document that can carry script.
  svg: `SVG images are not accepted: upload a ${typeNames("photo")}.`,
  imageSvg: `SVG images are not accepted: upload a ${typeNames("image")}.`,
  tooManyPixels: `The photo is larger than ${formatCount(PHOTO_MAX_PIXELS / 1000 ** 2)} megapixels.`,
  imageTooManyPixels: `The image is larger than ${formatCount(PHOTO_MAX_PIXELS / 1000 ** 2)} megapixels.`,
  animationTooManyPixels: `The animation is larger than ${formatCount(ANIMATION_MAX_PIXELS / 1000 ** 2)} megapixels over all its frames (frames × width × height): use fewer frames or smaller ones.`,
  busy: `The server is already processing ${formatCount(1 + PROCESSING_MAX_WAITING)} images: try again in ${formatDuration(PROCESSING_RETRY_MS)}.`,
} as const;

/** The text for a file of the wrong type, whatever its name or the browser claimed. */
export const uploadTypeText = (kind: UploadKind) =>
  kind !== "cv"
    ? `The ${UPLOAD_NOUNS[kind]} must be a ${typeNames(kind)} image.`
    : `The ${UPLOAD_NOUNS[kind]} must be a ${typeNames(kind)}.`;

/** The text for a file over its kind's limit. */
export const uploadTooLargeText = (kind: UploadKind) =>
  `The ${UPLOAD_NOUNS[kind]} is larger than ${formatBytes(UPLOAD_LIMITS[kind])}.`;

/** Content-hashed files (built assets, uploads): the same bytes at that URL forever. */
export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";

/** The multipart field the editor sends an image in (POST /api/images). */
export const IMAGE_FIELD = "image";

/**
 * A post's image as the editor inserts it and the post stores it: the file in the upload's own
 * format (or its largest WebP) as `src`, every WebP width as `srcset`, and the largest file's
 * dimensions, which the reader gives as `width` and `height` so the page does not shift.
 */
export type PostImage = { src: string; srcset: string; width: number; height: number };

/** The PostImage of an upload's stored files (WebP widths smallest first, then any fallback). */
export function postImageOf(
  files: { hash: string; contentType: MediaType; width: number | null; height: number | null }[],
): PostImage {
  const webp = files.filter((file) => file.contentType === "image/webp");
  const fallback = files.find((file) => file.contentType !== "image/webp") ?? webp.at(-1)!;
  return {
    src: mediaUrl(fallback.hash, fallback.contentType),
    srcset: webp
      .map((file) => `${mediaUrl(file.hash, file.contentType)} ${file.width}w`)
      .join(", "),
    width: fallback.width ?? 0,
    height: fallback.height ?? 0,
  };
}

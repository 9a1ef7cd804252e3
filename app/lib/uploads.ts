/**
 * The owner's uploads, owned here and shared by the admin page's file inputs (browser), the
 * upload pipeline (app/models/media.server.ts) and the media route: the limits, the accepted
 * types, the sizes a photo is served in, the files' URLs, and every text the owner sees. The
 * bounds' and types' texts are built from the constants, so they cannot drift apart.
 *
 * Plain TypeScript with no server imports: the admin page checks a file's size in the browser
 * before sending it, and the home page builds the photo's URLs with `mediaUrl`.
 */

import { formatBytes, formatCount } from "./format";

export type UploadKind = "photo" | "cv";

/**
 * The largest file accepted, in bytes: a phone's full-size photo fits in 5 MB, a CV in 10 MB.
 * The server's body limit for the admin page is built from these (app/route-policy.ts).
 */
export const UPLOAD_LIMITS = { photo: 5 * 1000 ** 2, cv: 10 * 1000 ** 2 } as const satisfies Record<
  UploadKind,
  number
>;

/**
 * The largest photo decoded, in pixels (width × height): a small file can declare a huge image
 * (a decompression bomb) whose pixels would take gigabytes of memory to decode. 50 megapixels
 * still takes a 48-megapixel phone camera's full-size photo (8000 × 6000).
 */
export const PHOTO_MAX_PIXELS = 50 * 1000 ** 2;

/**
 * The square sizes a photo is served in, smallest first: the home page shows it at 160 × 160
 * CSS pixels (PHOTO_SIZE, app/lib/site.ts), so 1×, 2× and 4× screens each get a file that fits.
 */
export const PHOTO_WIDTHS = [160, 320, 640] as const;

/** What each kind accepts: the type detected from the file's bytes, its name in texts, its extensions. */
export const UPLOAD_TYPES = {
  photo: [
    { type: "image/jpeg", name: "JPEG", extensions: [".jpg", ".jpeg"] },
    { type: "image/png", name: "PNG", extensions: [".png"] },
    { type: "image/webp", name: "WebP", extensions: [".webp"] },
  ],
  cv: [{ type: "application/pdf", name: "PDF", extensions: [".pdf"] }],
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

/** "JPEG, PNG or WebP": a kind's accepted types as the texts name them. */
const typeNames = (kind: UploadKind) => {
  const names: string[] = UPLOAD_TYPES[kind].map((t) => t.name);
  const last = names.pop();
  return names.length ? `${names.join(", ")} or ${last}` : `${last}`;
};

/** How the texts call each kind. */
const UPLOAD_NOUNS = { photo: "photo", cv: "CV" } as const satisfies Record<UploadKind, string>;

export const UPLOAD_TEXT = {
  noFile: "Choose a file to upload.",
  // SVG is refused by name: it is a picture to the owner, but a document that can carry script.
  svg: `SVG images are not accepted: upload a ${typeNames("photo")}.`,
  tooManyPixels: `The photo is larger than ${formatCount(PHOTO_MAX_PIXELS / 1000 ** 2)} megapixels.`,
} as const;

/** The text for a file of the wrong type, whatever its name or the browser claimed. */
export const uploadTypeText = (kind: UploadKind) =>
  kind === "photo"
    ? `The photo must be a ${typeNames(kind)} image.`
    : `The ${UPLOAD_NOUNS[kind]} must be a ${typeNames(kind)}.`;

/** The text for a file over its kind's limit. */
export const uploadTooLargeText = (kind: UploadKind) =>
  `The ${UPLOAD_NOUNS[kind]} is larger than ${formatBytes(UPLOAD_LIMITS[kind])}.`;

/** Content-hashed files (built assets, uploads): the same bytes at that URL forever. */
export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";

import path from "node:path";

import type { Database } from "../../../database/db.server";
import { IMAGE_SIZES, UPLOAD_LIMITS, postImageOf, type PostImage } from "~/features/media";
import { processImage, storeMedia } from "~/features/media/index.server";
import { FetchRefused, safeFetch } from "~/lib/safe-fetch.server";

/** Where an import's images come from: as the posts name them, or from another base URL. */
export type ImageOptions = {
  /** A base URL the export's image paths are fetched from (a copy of the old site's uploads). */
  imagesFrom?: string;
};

/** The files of the export a post's relative images are looked for in, and the post's folder. */
export type LocalFiles = { files: ReadonlyMap<string, Uint8Array>; base: string };

/** An image that could not be brought here, and why. */
export type FailedImage = { src: string; reason: string };

/** The images of one import, each fetched and stored once (posts often share them). */
export type ImageCache = Map<string, Promise<PostImage | FailedImage>>;

/** The address an image is fetched from, or null when it has none that can be fetched. */
export function imageSource(src: string, { imagesFrom }: ImageOptions): string | null {
  const decoded = src.replace(/&amp;/g, "&");
  if (imagesFrom) {
    let path = decoded;
    if (/^https?:\/\//i.test(decoded)) {
      const url = new URL(decoded);
      path = `${url.pathname}${url.search}`;
    }
    return new URL(
      path.replace(/^\/+/, ""),
      imagesFrom.endsWith("/") ? imagesFrom : `${imagesFrom}/`,
    ).href;
  }
  return /^https?:\/\//i.test(decoded) ? decoded : null;
}

/**
 * The export's own file a relative `src` names, resolved from the post's folder (`photo.webp`,
 * `./img/a.png`, `../common/b.jpg`); null for an address (absolute, site-relative or with a
 * scheme) or a path leaving the export.
 */
export function localFile(src: string, local: LocalFiles | undefined) {
  if (!local || /^(?:[a-z][a-z0-9+.-]*:|\/)/i.test(src)) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(src.replace(/&amp;/g, "&").replace(/[?#].*$/, ""));
  } catch {
    return null;
  }
  const name = path.posix.normalize(path.posix.join(local.base, relative));
  if (name.startsWith("../")) return null;
  const bytes = local.files.get(name);
  return bytes ? { name, bytes } : null;
}

/** Bytes from wherever they came, converted by the media pipeline and stored. */
async function store(db: Database, src: string, bytes: Uint8Array) {
  if (bytes.byteLength > UPLOAD_LIMITS.image)
    return { src, reason: "larger than an upload may be" };
  const processed = await processImage(bytes);
  if (!processed.ok) return { src, reason: processed.error };
  return postImageOf(await storeMedia(db, "image", processed.files));
}

async function fetchAndStore(db: Database, url: string): Promise<PostImage | FailedImage> {
  try {
    const response = await safeFetch(url, { maxBytes: UPLOAD_LIMITS.image });
    if (response.status !== 200)
      return { src: url, reason: `the server answered ${response.status}` };
    return await store(db, url, response.body);
  } catch (error) {
    if (error instanceof FetchRefused) return { src: url, reason: error.message };
    throw error;
  }
}

const isFailure = (image: PostImage | FailedImage): image is FailedImage => "reason" in image;

/**
 * The `<img>`s of some HTML taken from the export's own files (`local`, for a relative address)
 * or fetched (through the bounded outgoing fetch, which refuses private addresses unless
 * FETCH_ALLOW_PRIVATE), converted by the media pipeline (no metadata stays) and pointed at their
 * new copies. An image that fails is reported and left as it was (the import then keeps it as a
 * link).
 */
export async function rehostImages(
  db: Database,
  html: string,
  options: ImageOptions,
  cache: ImageCache,
  local?: LocalFiles,
): Promise<{ html: string; failed: FailedImage[] }> {
  const failed: FailedImage[] = [];
  const replacements = new Map<string, string>();
  for (const match of html.matchAll(/<img\b[^>]*>/gi)) {
    const tag = match[0];
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (!src || replacements.has(tag)) continue;
    const file = localFile(src, local);
    const url = file ? null : imageSource(src, options);
    if (!file && !url) {
      failed.push({ src, reason: "a relative address, and no base URL to fetch it from" });
      continue;
    }
    const key = file ? `file:${file.name}` : url!;
    if (!cache.has(key))
      cache.set(key, file ? store(db, src, file.bytes) : fetchAndStore(db, url!));
    const image = await cache.get(key)!;
    if (isFailure(image)) {
      failed.push({ src, reason: image.reason });
      continue;
    }
    const alt = /\balt\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1]?.trim() || "Image";
    replacements.set(
      tag,
      `<img src="${image.src}" srcset="${image.srcset}" sizes="${IMAGE_SIZES}" width="${image.width}" height="${image.height}" alt="${alt}">`,
    );
  }
  return { html: html.replace(/<img\b[^>]*>/gi, (tag) => replacements.get(tag) ?? tag), failed };
}

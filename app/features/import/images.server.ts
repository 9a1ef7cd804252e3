import type { Database } from "../../../database/db.server";
import { IMAGE_SIZES, UPLOAD_LIMITS, postImageOf, type PostImage } from "~/features/media";
import { processImage, storeMedia } from "~/features/media/index.server";
import { FetchRefused, safeFetch } from "~/lib/safe-fetch.server";

/** Where an import's images come from: as the posts name them, or from another base URL. */
export type ImageOptions = {
  /** A base URL the export's image paths are fetched from (a copy of the old site's uploads). */
  imagesFrom?: string;
};

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

async function fetchAndStore(db: Database, url: string): Promise<PostImage | FailedImage> {
  try {
    const response = await safeFetch(url, { maxBytes: UPLOAD_LIMITS.image });
    if (response.status !== 200)
      return { src: url, reason: `the server answered ${response.status}` };
    const processed = await processImage(response.body);
    if (!processed.ok) return { src: url, reason: processed.error };
    return postImageOf(await storeMedia(db, "image", processed.files));
  } catch (error) {
    if (error instanceof FetchRefused) return { src: url, reason: error.message };
    throw error;
  }
}

const isFailure = (image: PostImage | FailedImage): image is FailedImage => "reason" in image;

/**
 * The `<img>`s of some HTML fetched (through the bounded outgoing fetch, which refuses private
 * addresses unless FETCH_ALLOW_PRIVATE), converted by the media pipeline (no metadata stays)
 * and pointed at their new copies. An image that fails is reported and left as it was (the
 * import then keeps it as a link).
 */
export async function rehostImages(
  db: Database,
  html: string,
  options: ImageOptions,
  cache: ImageCache,
): Promise<{ html: string; failed: FailedImage[] }> {
  const failed: FailedImage[] = [];
  const replacements = new Map<string, string>();
  for (const match of html.matchAll(/<img\b[^>]*>/gi)) {
    const tag = match[0];
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (!src || replacements.has(tag)) continue;
    const url = imageSource(src, options);
    if (!url) {
      failed.push({ src, reason: "a relative address, and no base URL to fetch it from" });
      continue;
    }
    if (!cache.has(url)) cache.set(url, fetchAndStore(db, url));
    const image = await cache.get(url)!;
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

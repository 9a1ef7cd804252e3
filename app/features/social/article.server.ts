/**
 * A published post as an ActivityPub `Article`: what its id (`/ap/posts/{id}`) answers, and
 * what Create and Update activities carry. The content is the posts' own sanitized HTML with
 * uploads at absolute URLs; its images are attachments too (Mastodon shows attachments, not
 * inline images), with their alt text as `name`.
 */
import { Article, Hashtag, Image, PUBLIC_COLLECTION } from "@fedify/vocab";
import { Temporal as Polyfill } from "@js-temporal/polyfill";

import { postPath, tagPath } from "~/features/posts";
import { absoluteMediaUrls, getPost, loadPostSanitizer } from "~/features/posts/index.server";
import type { Database } from "../../../database/db.server";
import { socialUrls } from "./urls";

/**
 * A date as the Temporal.Instant Fedify's vocabulary takes. Node 24 has no global Temporal:
 * Fedify runs on @js-temporal/polyfill (its own dependency), typed as TypeScript's Temporal.
 */
export const instantOf = (date: Date) =>
  Polyfill.Instant.fromEpochMilliseconds(date.getTime()) as unknown as Temporal.Instant;

const IMG = /<img\b[^>]*>/gi;
const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag);
  return match ? decodeEntities(match[1]!) : null;
};
const decodeEntities = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The images of sanitized HTML: absolute source and alt text, in order, each once. */
export function imagesOf(html: string, base: string): { url: string; alt: string }[] {
  const seen = new Set<string>();
  const images: { url: string; alt: string }[] = [];
  for (const [tag] of html.matchAll(IMG)) {
    const src = attribute(tag, "src");
    if (!src) continue;
    let url: string;
    try {
      url = new URL(src, `${base}/`).href;
    } catch {
      continue;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    images.push({ url, alt: attribute(tag, "alt") ?? "" });
  }
  return images;
}

const MEDIA_TYPES: Record<string, string> = {
  avif: "image/avif",
  gif: "image/gif",
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  png: "image/png",
  svg: "image/svg+xml",
  webp: "image/webp",
};

const mediaTypeOf = (url: string) =>
  MEDIA_TYPES[/\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase() ?? ""];

/** The published post `id` as an Article, or null (no such post, or not public). */
export async function articleOf(
  db: Database,
  siteUrl: string,
  id: number,
): Promise<Article | null> {
  const post = await getPost(db, id);
  if (!post || post.status !== "published" || !post.publishedAt) return null;
  const urls = socialUrls(siteUrl);
  const sanitize = await loadPostSanitizer();
  const content = absoluteMediaUrls(sanitize(post.content), siteUrl);
  const published = post.publishedAt;
  const updated = post.updatedAt > published ? post.updatedAt : published;
  return new Article({
    id: new URL(urls.article(post.id)),
    attribution: new URL(urls.actor),
    name: post.title,
    content,
    mediaType: "text/html",
    summary: post.description || null,
    url: new URL(`${siteUrl}${postPath(post.slug)}`),
    published: instantOf(published),
    updated: instantOf(updated),
    to: PUBLIC_COLLECTION,
    cc: new URL(urls.followers),
    tags: post.tags.map(
      (tag) => new Hashtag({ name: `#${tag}`, href: new URL(`${siteUrl}${tagPath(tag)}`) }),
    ),
    attachments: imagesOf(content, siteUrl).map(
      (image) =>
        new Image({
          url: new URL(image.url),
          name: image.alt,
          mediaType: mediaTypeOf(image.url) ?? null,
        }),
    ),
  });
}

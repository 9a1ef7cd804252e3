import type { MetaDescriptor } from "react-router";

import type { ShareImage } from "~/features/cards";

import type { SiteIdentity } from "./site";

export type PageMeta = {
  /** What every page shows of the owner, from the root loader (`siteOf(matches)`). */
  site: SiteIdentity;
  /** The site's absolute base (SITE_URL), from the root loader. */
  siteUrl: string;
  /** Path and query of this page's canonical URL, e.g. `/blog?page=2`. */
  path: string;
  title: string;
  description: string;
  /** Open Graph and Twitter card tags (home page and posts). */
  share?: {
    type: "website" | "article";
    publishedTime?: string;
    modifiedTime?: string;
    tags?: readonly string[];
    /** The page's share card (1200×630); without one (not drawn yet), the site's share image. */
    image?: ShareImage | null;
  };
  jsonLd?: Record<string, unknown>;
  /** Keep the page out of search engines (test pages, errors). */
  noindex?: boolean;
};

/** A site path made absolute with SITE_URL; a URL that is already absolute (a CDN) stays. */
export const absoluteUrl = (siteUrl: string, path: string) =>
  /^https?:\/\//.test(path) ? path : `${siteUrl}${path}`;

/**
 * The share image's tags: a drawn card with its size and text alternative, for a large card
 * (Twitter's summary_large_image); else the site's image (the photo) for a small one.
 */
function imageTags(siteUrl: string, card: ShareImage | null, fallback: string): MetaDescriptor[] {
  if (!card) {
    return [
      { property: "og:image", content: absoluteUrl(siteUrl, fallback) },
      { name: "twitter:card", content: "summary" },
    ];
  }
  const url = absoluteUrl(siteUrl, card.url);
  return [
    { property: "og:image", content: url },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(card.width) },
    { property: "og:image:height", content: String(card.height) },
    { property: "og:image:alt", content: card.alt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:image", content: url },
    { name: "twitter:image:alt", content: card.alt },
  ];
}

/** Title, description and canonical URL for every page; share tags and JSON-LD where asked. */
export function pageMeta(meta: PageMeta): MetaDescriptor[] {
  const url = absoluteUrl(meta.siteUrl, meta.path);
  const tags: MetaDescriptor[] = [
    { title: meta.title },
    { name: "description", content: meta.description },
    { tagName: "link", rel: "canonical", href: url },
  ];
  if (meta.noindex) tags.push({ name: "robots", content: "noindex" });
  if (meta.share) {
    tags.push(
      { property: "og:type", content: meta.share.type },
      { property: "og:site_name", content: meta.site.name },
      { property: "og:title", content: meta.title },
      { property: "og:description", content: meta.description },
      { property: "og:url", content: url },
      ...imageTags(meta.siteUrl, meta.share.image ?? null, meta.site.shareImage),
      { property: "og:locale", content: "en_US" },
      { name: "twitter:title", content: meta.title },
      { name: "twitter:description", content: meta.description },
    );
    if (meta.share.publishedTime) {
      tags.push({ property: "article:published_time", content: meta.share.publishedTime });
    }
    if (meta.share.modifiedTime) {
      tags.push({ property: "article:modified_time", content: meta.share.modifiedTime });
    }
    for (const tag of meta.share.tags ?? []) tags.push({ property: "article:tag", content: tag });
  }
  if (meta.jsonLd) tags.push({ "script:ld+json": meta.jsonLd as never });
  return tags;
}

/** Plain text of sanitized post HTML, cut at a word near `max` characters: a description. */
export function excerpt(html: string, max = 160): string {
  const text = html
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lastSpace = cut.lastIndexOf(" ");
  return `${cut.slice(0, lastSpace > max / 2 ? lastSpace : max).trimEnd()}…`;
}

import { appContext } from "~/context";
import { absoluteMediaUrls } from "~/lib/post-render.server";
import { loadPostSanitizer } from "~/lib/sanitize.server";
import { escapeXml } from "~/lib/xml";
import { listRecentPosts } from "~/models/posts.server";
import { readSiteIdentity } from "~/lib/site.server";

import type { Route } from "./+types/rss";

/** How many posts the feed carries. */
export const FEED_SIZE = 20;

/**
 * RSS 2.0 with the newest posts and their full, sanitized content (escaped, not CDATA), images
 * at absolute URLs.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, env } = context.get(appContext);
  const [posts, sanitizePostHtml, site] = await Promise.all([
    listRecentPosts(db, FEED_SIZE),
    loadPostSanitizer(),
    readSiteIdentity(db),
  ]);
  const base = env.siteUrl;
  const items = posts.map((post) => {
    const url = `${base}/blog/${post.id}`;
    return [
      "    <item>",
      `      <title>${escapeXml(post.title)}</title>`,
      `      <link>${escapeXml(url)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
      `      <pubDate>${post.createdAt.toUTCString()}</pubDate>`,
      post.description ? `      <description>${escapeXml(post.description)}</description>` : null,
      `      <content:encoded>${escapeXml(absoluteMediaUrls(sanitizePostHtml(post.content), base))}</content:encoded>`,
      "    </item>",
    ]
      .filter((line) => line !== null)
      .join("\n");
  });
  const newest = posts[0]?.createdAt ?? new Date(0);
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    `    <title>${escapeXml(`${site.name} · Blog`)}</title>`,
    `    <link>${escapeXml(`${base}/blog`)}</link>`,
    `    <atom:link href="${escapeXml(`${base}/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    `    <description>${escapeXml(`Posts by ${site.name}, ${site.title} in ${site.location}.`)}</description>`,
    "    <language>en</language>",
    `    <lastBuildDate>${newest.toUTCString()}</lastBuildDate>`,
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
  return new Response(xml, {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
    },
  });
}

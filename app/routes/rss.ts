import { FEED_FORMAT } from "~/features/posts";
import { FEED_LANGUAGE, serveFeed, type Feed } from "~/features/posts/index.server";
import { escapeXml } from "~/lib/xml";

import type { Route } from "./+types/rss";

/**
 * RSS 2.0 of the blog (`/rss.xml`) or of a tag (`/blog/tags/{tag}/rss.xml`): the newest
 * published posts with their full, sanitized content (escaped, not CDATA), images at absolute
 * URLs.
 */
export const loader = (args: Route.LoaderArgs) => serveFeed(args, FEED_FORMAT.rss, writeRss);

function writeRss(feed: Feed): string {
  const items = feed.entries.map((entry) =>
    [
      "    <item>",
      `      <title>${escapeXml(entry.title)}</title>`,
      `      <link>${escapeXml(entry.url)}</link>`,
      // The stable id resolves to the post too (a 301 to its slug): a permalink.
      `      <guid isPermaLink="true">${escapeXml(entry.id)}</guid>`,
      `      <pubDate>${entry.published.toUTCString()}</pubDate>`,
      // Readers take a description as HTML: the plain text is escaped as HTML, then as XML.
      entry.summary
        ? `      <description>${escapeXml(escapeXml(entry.summary))}</description>`
        : null,
      ...entry.tags.map((tag) => `      <category>${escapeXml(tag)}</category>`),
      `      <content:encoded>${escapeXml(entry.html)}</content:encoded>`,
      "    </item>",
    ]
      .filter((line) => line !== null)
      .join("\n"),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    `    <title>${escapeXml(feed.title)}</title>`,
    `    <link>${escapeXml(feed.homeUrl)}</link>`,
    `    <atom:link href="${escapeXml(feed.selfUrl)}" rel="self" type="${FEED_FORMAT.rss.type}"/>`,
    `    <description>${escapeXml(feed.description)}</description>`,
    `    <language>${FEED_LANGUAGE}</language>`,
    `    <lastBuildDate>${feed.updated.toUTCString()}</lastBuildDate>`,
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}

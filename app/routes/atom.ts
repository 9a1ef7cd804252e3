import { FEED_FORMAT } from "~/features/posts";
import { FEED_LANGUAGE, serveFeed, type Feed } from "~/features/posts/index.server";
import { escapeXml } from "~/lib/xml";

import type { Route } from "./+types/atom";

/**
 * Atom 1.0 (RFC 4287) of the blog (`/atom.xml`) or of a tag (`/blog/tags/{tag}/atom.xml`): the
 * same posts as the RSS feed, with when each last changed. Entries' ids are the stable
 * `{siteUrl}/blog/{id}` (app/features/posts/feeds.server.ts), the feed's its own URL.
 */
export const loader = (args: Route.LoaderArgs) => serveFeed(args, FEED_FORMAT.atom, writeAtom);

function writeAtom(feed: Feed): string {
  const entries = feed.entries.map((entry) =>
    [
      "  <entry>",
      `    <id>${escapeXml(entry.id)}</id>`,
      `    <title>${escapeXml(entry.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(entry.url)}"/>`,
      `    <published>${entry.published.toISOString()}</published>`,
      `    <updated>${entry.updated.toISOString()}</updated>`,
      entry.summary ? `    <summary>${escapeXml(entry.summary)}</summary>` : null,
      ...entry.tags.map((tag) => `    <category term="${escapeXml(tag)}"/>`),
      `    <content type="html">${escapeXml(entry.html)}</content>`,
      "  </entry>",
    ]
      .filter((line) => line !== null)
      .join("\n"),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${FEED_LANGUAGE}">`,
    `  <id>${escapeXml(feed.selfUrl)}</id>`,
    `  <title>${escapeXml(feed.title)}</title>`,
    `  <subtitle>${escapeXml(feed.description)}</subtitle>`,
    `  <updated>${feed.updated.toISOString()}</updated>`,
    "  <author>",
    `    <name>${escapeXml(feed.author.name)}</name>`,
    `    <uri>${escapeXml(feed.author.url)}</uri>`,
    "  </author>",
    `  <link rel="self" type="${FEED_FORMAT.atom.type}" href="${escapeXml(feed.selfUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(feed.homeUrl)}"/>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}

import { FEED_FORMAT } from "~/features/posts";
import { FEED_LANGUAGE, serveFeed, type Feed } from "~/features/posts/index.server";

import type { Route } from "./+types/feed-json";

/**
 * JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of the blog (`/feed.json`) or of a tag
 * (`/blog/tags/{tag}/feed.json`): the same posts and ids as the Atom feed.
 */
export const loader = (args: Route.LoaderArgs) => serveFeed(args, FEED_FORMAT.json, writeJsonFeed);

function writeJsonFeed(feed: Feed): string {
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: feed.title,
    home_page_url: feed.homeUrl,
    feed_url: feed.selfUrl,
    description: feed.description,
    language: FEED_LANGUAGE,
    authors: [feed.author],
    // Optional fields a post lacks are left out (undefined), not sent empty.
    items: feed.entries.map((entry) => ({
      id: entry.id,
      url: entry.url,
      title: entry.title,
      content_html: entry.html,
      summary: entry.summary ?? undefined,
      date_published: entry.published.toISOString(),
      date_modified: entry.updated.toISOString(),
      tags: entry.tags.length > 0 ? entry.tags : undefined,
    })),
  });
}

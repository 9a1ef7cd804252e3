import type { RouterContextProvider } from "react-router";

import { appContext } from "~/context";
import { readSiteIdentity } from "~/features/site/index.server";

import { feedPath, feedTitle, type FeedFormat } from "./feeds";
import { isTag, postPath, tagPath } from "./publishing";
import { listRecentPosts } from "./read.server";
import { absoluteMediaUrls } from "./render.server";
import { loadPostSanitizer } from "./sanitize.server";

/**
 * What the three feed formats (app/routes/rss.ts, atom.ts, feed-json.ts) share: which posts a
 * feed carries and everything about them a reader needs, at absolute URLs. Each route only
 * writes this out in its format.
 */

/** How many posts a feed carries. */
export const FEED_SIZE = 20;

/** The language of the site's pages (`<html lang>`), and so of its feeds. */
export const FEED_LANGUAGE = "en";

export type FeedEntry = {
  /**
   * What identifies the post for good (Atom's `id`, RSS's `guid`, JSON Feed's `id`):
   * `{siteUrl}/blog/{id}`, not the slug URL. A slug can change and a reader would then show the
   * post again as new; the id never changes nor is reused, the URL still leads to the post (it
   * moves to the current slug with a 301), and it is the guid the RSS feed gave posts before
   * they had slugs, so subscribers see no post twice.
   */
  id: string;
  /** The canonical page: `{siteUrl}/blog/{slug}`, or the post's canonical URL elsewhere. */
  url: string;
  title: string;
  /** The description, when the post has one. */
  summary: string | null;
  /** The full content, sanitized, uploads at absolute URLs. */
  html: string;
  published: Date;
  /** The last change, never before it went public (a scheduled post was saved earlier). */
  updated: Date;
  tags: string[];
};

export type Feed = {
  title: string;
  description: string;
  /** The page the feed follows: the blog, or the tag's list. */
  homeUrl: string;
  /** This feed's own URL, in the format asked for. */
  selfUrl: string;
  author: { name: string; url: string };
  /**
   * The newest entry's `updated`; the epoch for an empty blog, so a feed's document depends on
   * the posts alone and stays the same until one changes.
   */
  updated: Date;
  entries: FeedEntry[];
};

type FeedArgs = { context: Readonly<RouterContextProvider>; params: { tag?: string } };

/**
 * The blog's newest published posts (`params.tag` absent), or a tag's; null for a tag no
 * published post has, or a segment that cannot be a tag.
 */
export async function readFeed(
  { context, params }: FeedArgs,
  format: FeedFormat,
): Promise<Feed | null> {
  const { db, env, degraded } = context.get(appContext);
  const { tag } = params;
  if (tag !== undefined && !isTag(tag)) return null;
  const [posts, sanitizePostHtml, site] = await Promise.all([
    listRecentPosts(db, FEED_SIZE, tag),
    loadPostSanitizer(),
    readSiteIdentity(db, degraded),
  ]);
  // A tag's list holds its published posts: none means no such tag, as its page answers.
  if (tag !== undefined && posts.length === 0) return null;
  const base = env.siteUrl;
  const entries = posts.map((post): FeedEntry => {
    // A published post always has the time it went public (a trigger of migration 0007).
    const published = post.publishedAt!;
    return {
      id: `${base}/blog/${post.id}`,
      // A post first published elsewhere links there, as its page's canonical link does.
      url: post.canonicalUrl ?? `${base}${postPath(post.slug)}`,
      title: post.title,
      summary: post.description || null,
      html: absoluteMediaUrls(sanitizePostHtml(post.content), base),
      published,
      updated: post.updatedAt > published ? post.updatedAt : published,
      tags: post.tags,
    };
  });
  const newest = Math.max(0, ...entries.map((entry) => entry.updated.getTime()));
  return {
    title: feedTitle(site.name, tag),
    description: tag
      ? `Posts by ${site.name} tagged ${tag}.`
      : `Posts by ${site.name}, ${site.title} in ${site.location}.`,
    homeUrl: `${base}${tag ? tagPath(tag) : "/blog"}`,
    selfUrl: `${base}${feedPath(format, tag)}`,
    author: { name: site.name, url: base },
    updated: new Date(newest),
    entries,
  };
}

/**
 * A feed route's response: the feed written by `write` with the format's type, or 404 (plain
 * text) for a tag with no published post.
 */
export async function serveFeed(
  args: FeedArgs,
  format: FeedFormat,
  write: (feed: Feed) => string,
): Promise<Response> {
  const feed = await readFeed(args, format);
  if (!feed) {
    return new Response("No published post has this tag.\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(write(feed), {
    headers: { "Content-Type": `${format.type}; charset=utf-8` },
  });
}

/**
 * The blog's feeds, in three formats, for the whole blog and for each tag: their paths, their
 * types and titles, and the `<link rel="alternate">` a page advertises them with.
 */
export const FEED_FORMAT = {
  rss: { file: "rss.xml", type: "application/rss+xml", label: "RSS" },
  atom: { file: "atom.xml", type: "application/atom+xml", label: "Atom" },
  json: { file: "feed.json", type: "application/feed+json", label: "JSON Feed" },
} as const;

/** The formats in the order pages list them. */
export const FEED_FORMATS = [FEED_FORMAT.rss, FEED_FORMAT.atom, FEED_FORMAT.json] as const;

export type FeedFormat = (typeof FEED_FORMATS)[number];

/** The path of a feed: the blog's (`/rss.xml`) or a tag's (`/blog/tags/{tag}/rss.xml`). */
export const feedPath = (format: FeedFormat, tag?: string) =>
  tag ? `/blog/tags/${tag}/${format.file}` : `/${format.file}`;

/** The title a feed carries and is advertised with. */
export const feedTitle = (siteName: string, tag?: string) =>
  tag ? `${siteName} · Blog · #${tag}` : `${siteName} · Blog`;

/** `<link rel="alternate">` for each format of a feed, as the attributes React renders. */
export function feedAlternates(siteName: string, tag?: string) {
  return FEED_FORMATS.map((format) => ({
    rel: "alternate",
    type: format.type,
    title: `${feedTitle(siteName, tag)} (${format.label})`,
    href: feedPath(format, tag),
  }));
}

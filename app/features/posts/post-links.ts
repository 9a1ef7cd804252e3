/**
 * A post's links to elsewhere (no zod, so the editor can load them): the canonical URL of a post
 * first published on another site, and the addresses of its copies ("Also on dev.to").
 */

export const POST_LINK_LIMITS = { urlLength: 2000, syndication: 10 } as const;

export const POST_LINK_TEXT = {
  canonical: "Canonical URL",
  canonicalHint:
    "Where the post was first published, if elsewhere: search engines, feeds and shares are pointed there.",
  syndication: "Also published at",
  syndicationHint: `The addresses of its copies elsewhere, one a line, up to ${POST_LINK_LIMITS.syndication}.`,
  badUrl: (url: string) =>
    `"${url.slice(0, 80)}" is not a web address (http or https, up to ${POST_LINK_LIMITS.urlLength} characters).`,
  tooMany: `A post can name at most ${POST_LINK_LIMITS.syndication} copies elsewhere.`,
  alsoOn: (host: string) => `Also on ${host}`,
} as const;

/** An http(s) address, as the URL parser writes it; null when the text is none. */
export function webAddress(text: string): string | null {
  const typed = text.trim();
  if (typed === "" || typed.length > POST_LINK_LIMITS.urlLength) return null;
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username !== "" || url.password !== "" || url.hostname === "") return null;
  const href = url.href;
  return href.length > POST_LINK_LIMITS.urlLength ? null : href;
}

/** The canonical URL typed in the editor: null for none, or an error. */
export function readCanonicalUrl(input: string): { url: string | null } | { error: string } {
  if (input.trim() === "") return { url: null };
  const url = webAddress(input);
  return url ? { url } : { error: POST_LINK_TEXT.badUrl(input.trim()) };
}

/**
 * The copies' addresses typed in the editor (one a line) or sent as a list: each checked,
 * empty ones and repeats dropped, the order kept. An error for a bad one or too many.
 */
export function readSyndication(
  input: string | readonly string[],
): { urls: string[] } | { error: string } {
  const items = typeof input === "string" ? input.split(/\r?\n/) : input;
  const urls: string[] = [];
  for (const item of items) {
    if (item.trim() === "") continue;
    const url = webAddress(item);
    if (!url) return { error: POST_LINK_TEXT.badUrl(item.trim()) };
    if (!urls.includes(url)) urls.push(url);
  }
  if (urls.length > POST_LINK_LIMITS.syndication) return { error: POST_LINK_TEXT.tooMany };
  return { urls };
}

/** "dev.to" for https://dev.to/me/a-post: what an "Also on" link names. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

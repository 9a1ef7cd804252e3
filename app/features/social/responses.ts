/** The responses a post shows (its page's data), and the words around them. */

/** The Webmention endpoint every page advertises (the `Link` header and `<link rel>`). */
export const WEBMENTION_PATH = "/webmention";

/** The endpoint's absolute URL, as pages advertise it. */
export const webmentionEndpoint = (siteUrl: string) =>
  `${siteUrl.replace(/\/+$/, "")}${WEBMENTION_PATH}`;

/** The `Link` header value every page sends. */
export const webmentionLinkHeader = (siteUrl: string) =>
  `<${webmentionEndpoint(siteUrl)}>; rel="webmention"`;

/** The most replies and mentions shown under one post, newest last. */
export const RESPONSES_SHOWN = 200;

export type ShownResponse = {
  id: number;
  kind: "reply" | "mention";
  sourceUrl: string;
  authorName: string;
  authorUrl: string | null;
  authorPhoto: string | null;
  contentHtml: string | null;
  /** When it was written (its own date), else when it arrived. */
  date: string;
};

export type PostResponses = { items: ShownResponse[]; likes: number; boosts: number };

export const RESPONSES_TEXT = {
  heading: "Responses",
  likes: (n: number) => `${n} ${n === 1 ? "like" : "likes"}`,
  boosts: (n: number) => `${n} ${n === 1 ? "boost" : "boosts"}`,
  mentioned: "mentioned this post",
} as const;

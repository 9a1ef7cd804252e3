/** Webmention's limits and texts, declared once (the endpoint's answers are built from them). */

export const WEBMENTION_LIMITS = {
  /**
   * Mentions from one source host waiting for verification at once: more are answered 429
   * until the queue has checked some (a per-sender limit that holds across instances).
   */
  pendingPerSourceHost: 20,
  /** The most links of one post that are sent Webmentions (the rest are not). */
  linksPerPost: 100,
  /** The longest source or target URL accepted. */
  urlChars: 2048,
} as const;

/** A Webmention's body: two URLs, form-encoded (each character at most 9 bytes). */
export const WEBMENTION_BODY_LIMIT = 2 * 9 * WEBMENTION_LIMITS.urlChars + 1024;

export const WEBMENTION_TEXT = {
  accepted: "Accepted: the source will be checked for a link to the target.",
  missing: "Both source and target are required (application/x-www-form-urlencoded).",
  notHttp: "Source and target must be http(s) URLs.",
  same: "The source and the target must differ.",
  notPost: "The target is not a published post of this site.",
  tooMany: `Too many mentions from this source are waiting to be checked (at most ${WEBMENTION_LIMITS.pendingPerSourceHost}); try again later.`,
} as const;

/**
 * Limits and delays of the HTTP layer, with the texts and header values built from them
 * (server/middleware/request-bodies.ts answers with these; which route takes which body is
 * declared in app/route-policy.ts), and the contact limit per client. A feature's own limits
 * live with it: the contact message's fields' in app/features/contact/message.ts, a post's in app/features/posts/rules.ts, the sign-in
 * throttle in app/features/owner/auth.server.ts, the outbox's delivery schedule in
 * app/features/contact/outbox.server.ts.
 */

import { formatBytes, MINUTE_MS, SECOND_MS } from "./format";

/** A Retry-After header's value for a wait: whole seconds, rounded up. */
export const retryAfter = (ms: number) => String(Math.ceil(ms / SECOND_MS));

/** The 413's text for a body over `limitBytes`. */
export const bodyTooLargeText = (limitBytes: number) =>
  `The request body is larger than ${formatBytes(limitBytes)}.`;

/**
 * The largest request bodies the server reads, in bytes; larger ones are refused unread with
 * 413 and `bodyTooLargeText`.
 */
export const BODY_LIMITS = {
  /**
   * Forms and small JSON, every route's unless it says otherwise. It holds the longest contact
   * message in any script, each character at most 9 bytes form-encoded (limits.test.ts checks).
   */
  form: 256 * 1024,
} as const;

/**
 * Contact messages per client address per window, counted in the database for every instance
 * (the contact feature's texts are built from it); CONTACT_RATE_LIMIT (the environment)
 * overrides the count, 0 turning it off. Here rather than with the contact feature because the
 * environment's schema (env.server.ts) takes its default from it.
 */
export const CONTACT_RATE_LIMIT = { messages: 5, windowMs: 10 * MINUTE_MS } as const;

/**
 * The newsletter's pace, in messages per minute for every instance together (a budget kept in
 * the database): NEWSLETTER_RATE (the environment) overrides it, to match the mail provider's
 * limit. One a second suits the strictest common plans (Amazon SES's sandbox, Resend's free
 * tier allows two); 10,000 subscribers then take under three hours. Here because the
 * environment's schema takes its default from it.
 */
export const NEWSLETTER_RATE = { perMinute: 60, max: 1_000_000 } as const;

/**
 * Every fetch of something outside (a follower's actor and key, a webmention's source, an
 * endpoint's discovery, an imported image) follows at most `maxRedirects` redirects, gives up
 * after `timeoutMs` in all, and reads at most `maxBytes` of body (app/lib/safe-fetch.server.ts).
 */
export const OUTGOING_FETCH = {
  maxRedirects: 5,
  timeoutMs: 10 * SECOND_MS,
  maxBytes: 1024 * 1024,
} as const;

/** While the database is unreachable, pages answer 503 asking to be retried after this. */
export const UNAVAILABLE_RETRY_MS = 5 * SECOND_MS;
export const UNAVAILABLE_RETRY_AFTER = retryAfter(UNAVAILABLE_RETRY_MS);

/**
 * How long the HTTP server waits on a client, and how many it serves at once (server/app.ts).
 * A client that trickles its request (a slow-loris attack, or a phone losing signal) holds a
 * socket and nothing else; these bound how long, so many of them cannot starve the others.
 */
export const CONNECTION_LIMITS = {
  /** The whole request line and headers must arrive within this, or the socket is closed (408). */
  headersMs: 10 * SECOND_MS,
  /**
   * The whole request, body included: a 10 MB image from a phone on a slow 3G link (about
   * 2 Mbit/s) arrives in about 40 s.
   */
  requestMs: 60 * SECOND_MS,
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: 5 * SECOND_MS,
  /**
   * A file being sent (server/media/) whose client takes nothing of it for this long has its
   * socket closed: a client that asks for the 10 MB CV and never reads holds a socket, a file
   * handle and a bounded buffer for this long, not forever. Checked once per period, so the
   * socket goes between one and two periods after the last byte the client took.
   */
  sendStallMs: 30 * SECOND_MS,
  /**
   * Any socket with no traffic either way for this long is closed (node:http's `timeout`): the
   * backstop for every other response a client stops reading.
   */
  idleSocketMs: 2 * MINUTE_MS,
  /**
   * How often those deadlines are checked (Node's default, 30 s, would let a slow client hold
   * its socket three times longer than `headersMs`).
   */
  checkEveryMs: 1 * SECOND_MS,
  /**
   * Open connections at most; beyond, a new one is closed at once. Far above what one instance
   * serves (a few hundred requests a second), well under the process's file limit.
   */
  maxConnections: 4_000,
} as const;

/**
 * The CDN purge (server/page-cache/purge.ts, docs/decisions/043-cdn-purge.md). A change's purge
 * waits `delayMs` after its notice: every instance hears the notice and offers the same job
 * (keyed by the notice), so an instance that hears it up to that late adds nothing, and a burst
 * of saves (autosave) becomes one request. A receiver should refuse a request whose timestamp is
 * more than `maxSkewMs` from its own clock (a replay).
 */
export const CDN_PURGE = {
  delayMs: 1 * SECOND_MS,
  maxSkewMs: 5 * MINUTE_MS,
  /** Each request's whole time; a slower CDN is retried with the job queue's backoff. */
  timeoutMs: 10 * SECOND_MS,
} as const;

/**
 * What the stored sanitizer made of a post's HTML is kept, so the pages and feeds that show a
 * post sanitize each version of it once, not on every request (a feed sanitized its 20 posts
 * each time, and held the server's memory about 50 MB higher under load). The bound counts the
 * characters kept, both the HTML read and what the sanitizer returned.
 */
export const SANITIZED_HTML_MEMO_CHARS = 2_000_000;

/**
 * When the server gives back what a burst of work left behind (server/at-rest.ts). V8 collects
 * garbage when a new allocation needs room, so a process that goes quiet after its start (the
 * migrations, the seed, the first share cards) or after an owner's import kept that garbage,
 * tens of MB, until traffic came. A period with no request, no job, and less than
 * `quietCpuShare` of a core's time used (a server left alone used 0.5%: 50 ms in 10 s) is
 * at rest; at rest and holding `growthBytes` more than after its last collection, the process
 * collects, once: about 60 ms on this machine, which a request that came just then would wait.
 */
export const AT_REST_COLLECTION = {
  checkEveryMs: 1 * SECOND_MS,
  quietCpuShare: 0.02,
  growthBytes: 8 * 1024 * 1024,
} as const;

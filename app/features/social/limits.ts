/**
 * The federation's numbers, declared once (docs/decisions/038-activitypub-with-fedify.md).
 */
import { DAY_MS, MINUTE_MS } from "~/lib/format";

/**
 * Inbox POSTs one remote host (the host of the signature's key, else the client's address) may
 * make per window, counted in the database for all instances together (inbox-rate.server.ts):
 * a busy Mastodon server sends a few a minute to one actor; more than this is answered 429
 * with Retry-After.
 */
export const INBOX_RATE_LIMIT = { requests: 120, windowMs: MINUTE_MS } as const;

/** The largest inbox POST read, in bytes (a Mastodon activity is a few kilobytes). */
export const INBOX_BODY_LIMIT = 256 * 1024;

/** A follower whose inbox has failed every delivery for this long is dropped. */
export const FOLLOWER_DROP_AFTER_MS = 3 * DAY_MS;

/** Items per page of the outbox and followers collections. */
export const COLLECTION_PAGE_SIZE = 20;

/**
 * Limits and delays of the HTTP layer, with the texts and header values built from them
 * (server/http.ts answers with these). A feature's own limits live with it: the contact
 * message's in app/lib/contact.ts, a post's in app/lib/post-rules.ts and
 * app/lib/post-write.server.ts, the sign-in throttle in app/models/auth.server.ts, the outbox's
 * delivery schedule in app/models/contact.server.ts.
 */

import { formatBytes, SECOND_MS } from "./format";

/** A Retry-After header's value for a wait: whole seconds, rounded up. */
export const retryAfter = (ms: number) => String(Math.ceil(ms / SECOND_MS));

/** The 413's text for a body over `limitBytes`. */
export const bodyTooLargeText = (limitBytes: number) =>
  `The request body is larger than ${formatBytes(limitBytes)}.`;

/**
 * Bodies above this are refused unread with 413 (the post API takes up to
 * MAX_POST_REQUEST_BYTES). It holds the longest contact message in any script, each character
 * at most 9 bytes form-encoded (limits.test.ts checks).
 */
export const MAX_FORM_BYTES = 256 * 1024;
export const FORM_TOO_LARGE = bodyTooLargeText(MAX_FORM_BYTES);

/** While the database is unreachable, pages answer 503 asking to be retried after this. */
export const UNAVAILABLE_RETRY_MS = 5 * SECOND_MS;
export const UNAVAILABLE_RETRY_AFTER = retryAfter(UNAVAILABLE_RETRY_MS);

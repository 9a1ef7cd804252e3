/**
 * Limits and delays of the HTTP layer, with the texts and header values built from them
 * (server/http.ts answers with these). A feature's own limits live with it: the contact
 * message's in app/lib/contact.ts, a post's in app/lib/post-rules.ts, the sign-in throttle in
 * app/models/auth.server.ts.
 */

import { SECOND_MS } from "./format";

/** A Retry-After header's value for a wait: whole seconds, rounded up. */
export const retryAfter = (ms: number) => String(Math.ceil(ms / SECOND_MS));

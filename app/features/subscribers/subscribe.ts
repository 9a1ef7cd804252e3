/**
 * The subscription form's rules and texts, shared by the page that shows the form (no
 * JavaScript: a plain form that posts) and the server that answers it.
 */
import { formatDuration, HOUR_MS, MINUTE_MS } from "~/lib/format";
import { CONTACT_RATE_LIMIT } from "~/lib/limits";

/** How long a confirmation link works after it is mailed. */
export const CONFIRM_LINK_VALID_MS = 48 * HOUR_MS;

/**
 * A pending address asked for again gets a new confirmation mail only when the last one went
 * out longer ago than this, so no one can fill a stranger's inbox by asking over and over.
 */
export const CONFIRM_RESEND_MS = 10 * MINUTE_MS;

/** Subscribe requests per client address per window, as for contact messages. */
export const SUBSCRIBE_RATE_LIMIT = {
  requests: CONTACT_RATE_LIMIT.messages,
  windowMs: CONTACT_RATE_LIMIT.windowMs,
} as const;

import { SUBSCRIBE_FORM_TEXT, SUBSCRIBER_EMAIL_MAX } from "./form";

export { SUBSCRIBE_FIELDS, SUBSCRIBE_PATH, SUBSCRIBER_EMAIL_MAX } from "./form";

/** The largest subscribe, confirm or unsubscribe body read: one address and a few fields. */
export const SUBSCRIBE_BODY_LIMIT = 4 * 1024;

export const SUBSCRIBE_TEXT = {
  ...SUBSCRIBE_FORM_TEXT,
  invalid: "Enter a valid e-mail address.",
  failed: "Subscribing failed. Please try again later.",
  limited: `Too many requests from your network. Try again in ${formatDuration(SUBSCRIBE_RATE_LIMIT.windowMs)}.`,
  doneTitle: "Check your inbox",
  // The same words whether the address is new, pending, subscribed or unsubscribed.
  done: `If the address can subscribe, a confirmation link is on its way. It works for ${formatDuration(CONFIRM_LINK_VALID_MS)}; until you follow it, nothing else is sent.`,
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An address as stored: trimmed and lower-cased; null when it is no address. */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= SUBSCRIBER_EMAIL_MAX && EMAIL.test(email) ? email : null;
}

/** What a subscribe request is answered with: the same for every valid address. */
export type SubscribeOutcome = { ok: boolean; title: string; message: string };

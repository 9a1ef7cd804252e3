/**
 * What the subscription form itself needs: kept apart from the answers' texts, because every
 * cached page (the home page among them, whose JavaScript budget is nearly spent) carries it.
 */

/** The form's fields: the address, and a field people never see that bots fill in. */
export const SUBSCRIBE_FIELDS = { email: "email", honeypot: "homepage" } as const;

/** The longest address taken (RFC 5321's path limit, as the contact form's). */
export const SUBSCRIBER_EMAIL_MAX = 320;

/** Where the form posts (a page of its own, answered without JavaScript). */
export const SUBSCRIBE_PATH = "/subscribe";

export const SUBSCRIBE_FORM_TEXT = {
  heading: "New posts by e-mail",
  intro: "Get each new post in your inbox. Unsubscribe with one click from any mail.",
  label: "Your e-mail",
  button: "Subscribe",
} as const;

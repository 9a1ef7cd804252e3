/**
 * The contact message, owned here and shared by the form (browser), the submit handler and the
 * outbox (server): its fields and their limits, the honeypot, the rate limit, the checks, and
 * every text the visitor sees. The Spanish texts and the button's are the product's, verbatim
 * (docs/product.md, Texts); the bounds' texts are built from the limits.
 *
 * Plain TypeScript, not a zod schema: the home page loads this, and zod/mini alone (about 5 KB
 * gzip) would take the whole margin left under the page's JavaScript budget
 * (docs/decisions/008-javascript-budget.md). The type comes from CONTACT_FIELDS all the same.
 */

import { formatCount } from "~/lib/format";
import { CONTACT_RATE_LIMIT } from "~/lib/limits";

/** The message's fields, in the form's order: its label, the noun the texts use, its bound. */
export const CONTACT_FIELDS = {
  name: { label: "Your Name", noun: "name", maxLength: 200 },
  email: { label: "Your Email", noun: "e-mail", maxLength: 320 },
  message: { label: "Your Message", noun: "message", maxLength: 10_000 },
} as const;

export type ContactField = keyof typeof CONTACT_FIELDS;
/** What a visitor sends (and the outbox stores, trimmed). */
export type ContactInput = Record<ContactField, string>;

export const CONTACT_FIELD_NAMES = Object.keys(CONTACT_FIELDS) as ContactField[];

/** The hidden field only bots fill in. */
export const CONTACT_HONEYPOT = "website";

export { CONTACT_RATE_LIMIT };

export const CONTACT_TEXT = {
  heading: "Contact",
  otherWays: "Or contact me through",
  honeypotLabel: "Website",
  errorTitle: "Error",
  successTitle: "¡Éxito!",
  missing: "Por favor, completa todos los campos",
  invalidEmail: "Por favor, ingresa un email válido",
  sent: "¡Mensaje enviado exitosamente! Te responderé pronto.",
  failed: "Error al enviar el mensaje. Por favor, intenta nuevamente.",
  sending: "Enviando...",
  send: "Send Message",
  unreadable: "The form could not be read.",
} as const;

/** The texts of the server's bounds, each from its field's limit. */
export const contactTooLongText = (field: ContactField) =>
  `The ${CONTACT_FIELDS[field].noun} can be at most ${formatCount(CONTACT_FIELDS[field].maxLength)} characters.`;
export const contactNullText = (field: ContactField) =>
  `The ${CONTACT_FIELDS[field].noun} contains a null character.`;

/** What the visitor is told, as a toast (the JSON endpoint answers it too). */
export type ContactOutcome = { ok: boolean; title: string; message: string };

export const contactFailure = (message: string = CONTACT_TEXT.failed): ContactOutcome => ({
  ok: false,
  title: CONTACT_TEXT.errorTitle,
  message,
});
export const CONTACT_SENT: ContactOutcome = {
  ok: true,
  title: CONTACT_TEXT.successTitle,
  message: CONTACT_TEXT.sent,
};

const mapFields = (value: (field: ContactField) => string) =>
  Object.fromEntries(CONTACT_FIELD_NAMES.map((field) => [field, value(field)])) as ContactInput;

/** Every field empty: the form's starting state. */
export const EMPTY_CONTACT: ContactInput = mapFields(() => "");

/** Just the message's fields, from anything that has them (a stored row, say). */
export const pickContact = (source: ContactInput): ContactInput =>
  mapFields((field) => source[field]);

/** The message as stored: each field trimmed. */
export const trimContact = (input: ContactInput): ContactInput =>
  mapFields((field) => input[field].trim());

/** The fields of a submitted form; one that is missing, or a file, reads as empty. */
export function readContactForm(form: FormData): ContactInput {
  return mapFields((field) => {
    const value = form.get(field);
    return typeof value === "string" ? value : "";
  });
}

/**
 * The product's checks as data, so the browser's inline script (./contact-script.ts) can run
 * `checkContact` from its own source: the fields that must be filled, the e-mail's pattern
 * (`local@domain.tld` with no whitespace anywhere), and the texts.
 */
export const CONTACT_RULES = {
  fields: CONTACT_FIELD_NAMES,
  email: "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$",
  missing: CONTACT_TEXT.missing,
  invalidEmail: CONTACT_TEXT.invalidEmail,
};
export type ContactRules = typeof CONTACT_RULES;

/**
 * The product's checks, in its order: every field filled (after trimming), then the e-mail's
 * form. Returns the message to show, or null when the input passes. It uses nothing but its
 * parameters: the contact script inlines its source.
 */
export function checkContact(input: ContactInput, rules: ContactRules): string | null {
  if (rules.fields.some((field) => !input[field].trim())) return rules.missing;
  if (!new RegExp(rules.email).test(input.email.trim())) return rules.invalidEmail;
  return null;
}

/** The product's checks (`checkContact` with the product's rules). */
export const contactProblem = (input: ContactInput): string | null =>
  checkContact(input, CONTACT_RULES);

/** The server's extra bounds (a browser cannot be trusted to keep them). */
export function contactBoundsProblem(input: ContactInput): string | null {
  // PostgreSQL text cannot hold U+0000; no keyboard types it either.
  const withNull = CONTACT_FIELD_NAMES.find((field) => input[field].includes("\0"));
  if (withNull) return contactNullText(withNull);
  const tooLong = CONTACT_FIELD_NAMES.find(
    (field) => input[field].trim().length > CONTACT_FIELDS[field].maxLength,
  );
  return tooLong ? contactTooLongText(tooLong) : null;
}

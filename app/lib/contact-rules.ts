/** The contact form's rules, shared by the browser and the server (original §5, §8). */

export const CONTACT_TEXT = {
  errorTitle: "Error",
  successTitle: "¡Éxito!",
  missing: "Por favor, completa todos los campos",
  invalidEmail: "Por favor, ingresa un email válido",
  sent: "¡Mensaje enviado exitosamente! Te responderé pronto.",
  failed: "Error al enviar el mensaje. Por favor, intenta nuevamente.",
  sending: "Enviando...",
  send: "Send Message",
} as const;

/** The hidden field only bots fill in. */
export const CONTACT_HONEYPOT = "website";

export const CONTACT_LIMITS = { name: 200, email: 320, message: 10_000 } as const;

/** `local@domain.tld` with no whitespace anywhere. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const FIELD_NAMES = { name: "name", email: "e-mail", message: "message" } as const;

export type ContactInput = { name: string; email: string; message: string };

/**
 * Checks in the original's order: every field filled (after trimming), then the e-mail's form.
 * Returns the message to show, or null when the input passes.
 */
export function contactProblem(input: ContactInput): string | null {
  if (!input.name.trim() || !input.email.trim() || !input.message.trim())
    return CONTACT_TEXT.missing;
  if (!EMAIL.test(input.email.trim())) return CONTACT_TEXT.invalidEmail;
  return null;
}

/** The server's extra bounds (a browser cannot be trusted to keep them). */
export function contactBoundsProblem(input: ContactInput): string | null {
  for (const field of ["name", "email", "message"] as const) {
    // PostgreSQL text cannot hold U+0000; no keyboard types it either.
    if (input[field].includes("\0")) return `The ${FIELD_NAMES[field]} contains a null character.`;
  }
  if (input.name.trim().length > CONTACT_LIMITS.name)
    return `The name can be at most ${CONTACT_LIMITS.name} characters.`;
  if (input.email.trim().length > CONTACT_LIMITS.email)
    return `The e-mail can be at most ${CONTACT_LIMITS.email} characters.`;
  if (input.message.trim().length > CONTACT_LIMITS.message) {
    return `The message can be at most ${CONTACT_LIMITS.message.toLocaleString("en-US")} characters.`;
  }
  return null;
}

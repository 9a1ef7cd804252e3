import type { RouterContextProvider } from "react-router";

import { appContext } from "~/context";
import { submitContact } from "~/models/contact.server";

import {
  CONTACT_HONEYPOT,
  CONTACT_TEXT,
  contactBoundsProblem,
  contactProblem,
} from "./contact-rules";
import { errorMessage, logEvent } from "./log.server";

export type ContactResult = { ok: boolean; title: string; message: string };

export type ContactFields = { name: string; email: string; message: string };

/** Names of the form's fields (the honeypot is hidden from people). */
const CONTACT_FIELDS = {
  name: "name",
  email: "email",
  message: "message",
  honeypot: CONTACT_HONEYPOT,
} as const;

const text = (form: FormData, key: string) => {
  const value = form.get(key);
  return typeof value === "string" ? value : "";
};

/**
 * The server side of the contact form, for the JSON endpoint and the no-JavaScript form alike:
 * the same checks as the browser, the bounds, the rate limit, the honeypot, and the message
 * committed to the outbox before success is answered.
 */
export async function handleContact(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ status: number; body: ContactResult; fields: ContactFields }> {
  let form: FormData | null = null;
  try {
    form = await request.formData();
  } catch {
    // answered below, once there are (empty) fields to hand back
  }
  const read = form ?? new FormData();
  const input: ContactFields = {
    name: text(read, CONTACT_FIELDS.name),
    email: text(read, CONTACT_FIELDS.email),
    message: text(read, CONTACT_FIELDS.message),
  };
  // The fields go back with every answer, so a page can keep them after a failure.
  const failure = (status: number, message: string) => ({
    status,
    body: { ok: false, title: CONTACT_TEXT.errorTitle, message },
    fields: input,
  });
  if (!form) return failure(400, "The form could not be read.");
  const problem = contactProblem(input) ?? contactBoundsProblem(input);
  if (problem) return failure(400, problem);

  const { db, env, clientAddress, wakeDelivery, requestId } = context.get(appContext);
  const spam = text(read, CONTACT_FIELDS.honeypot).trim() !== "";
  try {
    const outcome = await submitContact(
      db,
      { ...input, clientAddress, spam },
      env.contactRateLimit,
    );
    if (outcome === "limited") {
      logEvent("warn", "contact-rate-limited", { requestId, address: clientAddress });
      return failure(429, CONTACT_TEXT.failed);
    }
  } catch (error) {
    // The original's console text, as a structured line.
    logEvent("error", "contact-store-failed", {
      requestId,
      message: "Error storing a contact message:",
      error: errorMessage(error),
    });
    return failure(500, CONTACT_TEXT.failed);
  }
  if (!spam) wakeDelivery?.();
  return {
    status: 200,
    fields: input,
    body: { ok: true, title: CONTACT_TEXT.successTitle, message: CONTACT_TEXT.sent },
  };
}

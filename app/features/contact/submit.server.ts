import type { RouterContextProvider } from "react-router";

import { appContext } from "~/context";

import {
  CONTACT_HONEYPOT,
  CONTACT_RATE_LIMIT,
  CONTACT_SENT,
  CONTACT_TEXT,
  contactBoundsProblem,
  contactFailure,
  contactProblem,
  EMPTY_CONTACT,
  readContactForm,
  type ContactInput,
  type ContactOutcome,
} from "./message";
import { submitContact } from "./outbox.server";
import { retryAfter } from "~/lib/limits";
import { errorMessage, logEvent } from "~/lib/log.server";

export type ContactAnswer = {
  status: number;
  body: ContactOutcome;
  /** The fields as sent, so a page can keep them after a failure. */
  fields: ContactInput;
  headers?: Record<string, string>;
};

/** Over the rate limit: try again once the window has passed. */
const LIMITED_HEADERS = { "Retry-After": retryAfter(CONTACT_RATE_LIMIT.windowMs) };

/**
 * The server side of the contact form, for the JSON endpoint and the no-JavaScript form alike:
 * the same checks as the browser, the bounds, the rate limit, the honeypot, and the message
 * committed to the outbox before success is answered.
 */
export async function handleContact(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<ContactAnswer> {
  const form = await request.formData().catch(() => null);
  const input = form ? readContactForm(form) : EMPTY_CONTACT;
  const failure = (status: number, message: string, headers?: Record<string, string>) => ({
    status,
    body: contactFailure(message),
    fields: input,
    headers,
  });
  if (!form) return failure(400, CONTACT_TEXT.unreadable);
  const problem = contactProblem(input) ?? contactBoundsProblem(input);
  if (problem) return failure(400, problem);

  const { db, env, clientAddress, wakeDelivery, requestId } = context.get(appContext);
  const honeypot = form.get(CONTACT_HONEYPOT);
  const spam = typeof honeypot === "string" && honeypot.trim() !== "";
  try {
    const outcome = await submitContact(
      db,
      { ...input, clientAddress, spam },
      env.contactRateLimit,
    );
    if (outcome === "limited") {
      logEvent("warn", "contact-rate-limited", { requestId, address: clientAddress });
      return failure(429, CONTACT_TEXT.failed, LIMITED_HEADERS);
    }
  } catch (error) {
    // The console text the product has always logged, as a structured line.
    logEvent("error", "contact-store-failed", {
      requestId,
      message: "Error storing a contact message:",
      error: errorMessage(error),
    });
    return failure(500, CONTACT_TEXT.failed);
  }
  if (!spam) wakeDelivery?.();
  return { status: 200, body: CONTACT_SENT, fields: input };
}

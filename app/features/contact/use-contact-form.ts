import { useState, type ChangeEvent, type FormEvent } from "react";

import {
  CONTACT_HONEYPOT,
  contactFailure,
  contactProblem,
  EMPTY_CONTACT,
  type ContactField,
  type ContactInput,
  type ContactOutcome,
} from "./message";

/** What the home page's action answered a form posted without JavaScript. */
export type ContactInitial = { outcome: ContactOutcome; fields: ContactInput };

/** Sends the message to /api/contact; any failure (network, status, body) reads as the generic one. */
async function sendContact(fields: ContactInput, honeypot: string): Promise<ContactOutcome> {
  try {
    const body = new URLSearchParams(fields);
    if (honeypot) body.set(CONTACT_HONEYPOT, honeypot);
    const response = await fetch("/api/contact", { method: "POST", body });
    const result = (await response.json().catch(() => null)) as ContactOutcome | null;
    if (!response.ok || !result?.ok) throw new Error(result?.message ?? `HTTP ${response.status}`);
    return result;
  } catch (error) {
    console.error("Error sending the contact message:", error);
    return contactFailure();
  }
}

/**
 * The form's state: its fields (kept after a failure, cleared after a success), whether it is
 * sending, and the toast of its last outcome. `initial` is a no-JavaScript post's answer.
 */
export function useContactForm(initial?: ContactInitial) {
  const [fields, setFields] = useState<ContactInput>(
    initial && !initial.outcome.ok ? initial.fields : EMPTY_CONTACT,
  );
  const [sending, setSending] = useState(false);
  const [toast, setToast] = useState<{ outcome: ContactOutcome; visible: boolean } | null>(
    initial ? { outcome: initial.outcome, visible: true } : null,
  );
  const show = (outcome: ContactOutcome) => setToast({ outcome, visible: true });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = contactProblem(fields);
    if (problem) return show(contactFailure(problem));
    setSending(true);
    const honeypot = new FormData(event.currentTarget).get(CONTACT_HONEYPOT);
    const outcome = await sendContact(fields, typeof honeypot === "string" ? honeypot : "");
    if (outcome.ok) setFields(EMPTY_CONTACT);
    show(outcome);
    setSending(false);
  }

  /** A field's name, value and change handler, for its input. */
  const bind = (key: ContactField) => ({
    name: key,
    value: fields[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setFields((f) => ({ ...f, [key]: e.target.value })),
  });
  const hideToast = () => setToast((t) => (t ? { ...t, visible: false } : t));

  return { submit, bind, sending, toast, hideToast };
}

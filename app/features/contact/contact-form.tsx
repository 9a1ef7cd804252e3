import { LoaderCircle } from "lucide-react";
import type { Ref } from "react";

import { buttonClass } from "~/ui/button";

import {
  CONTACT_FIELD_NAMES,
  CONTACT_FIELDS,
  CONTACT_HONEYPOT,
  CONTACT_TEXT,
  type ContactField,
  type ContactInput,
} from "./message";

const field =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const label = "block text-sm font-medium text-slate-800 dark:text-slate-200";

/** Each field's control. */
const CONTROLS: Record<ContactField, { type?: "text" | "email"; autoComplete?: string }> = {
  name: { type: "text", autoComplete: "name" },
  email: { type: "email", autoComplete: "email" },
  message: {},
};

/** One labelled field; the message is a textarea, the others inputs. */
function FieldControl({ name, value }: { name: ContactField; value: string }) {
  const id = `contact-${name}`;
  const { type, autoComplete } = CONTROLS[name];
  return (
    <div>
      <label htmlFor={id} className={label}>
        {CONTACT_FIELDS[name].label}
      </label>
      {type ? (
        <input
          id={id}
          name={name}
          type={type}
          autoComplete={autoComplete}
          className={field}
          defaultValue={value}
        />
      ) : (
        <textarea id={id} name={name} rows={5} className={field} defaultValue={value} />
      )}
    </div>
  );
}

/** The honeypot: hidden from people and assistive technology; bots fill it in. */
function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor="contact-website">{CONTACT_TEXT.honeypotLabel}</label>
      <input
        id="contact-website"
        name={CONTACT_HONEYPOT}
        type="text"
        tabIndex={-1}
        autoComplete="off"
      />
    </div>
  );
}

/**
 * Disabled with a spinner and `Enviando...` while the message is on its way: both labels are in
 * the markup, the script (./contact-script.ts) shows one.
 */
function SendButton() {
  return (
    <button type="submit" className={buttonClass({ size: "lg" })}>
      <span data-send-label="idle">{CONTACT_TEXT.send}</span>
      <span data-send-label="sending" hidden className="inline-flex items-center gap-2">
        <LoaderCircle aria-hidden="true" data-testid="spinner" className="size-4 animate-spin" />
        {CONTACT_TEXT.sending}
      </span>
    </button>
  );
}

/**
 * The form itself. Without JavaScript it posts to the home page, whose action answers with the
 * same outcome; with it, the contact script sends it to /api/contact. `fields`: what it shows
 * (kept after a failed post).
 */
export function ContactForm({ fields, ref }: { fields: ContactInput; ref?: Ref<HTMLFormElement> }) {
  return (
    <form
      ref={ref}
      method="post"
      action="/?index"
      className="space-y-4"
      noValidate
      data-contact-form=""
    >
      {CONTACT_FIELD_NAMES.map((name) => (
        <FieldControl key={name} name={name} value={fields[name]} />
      ))}
      <Honeypot />
      <SendButton />
    </form>
  );
}

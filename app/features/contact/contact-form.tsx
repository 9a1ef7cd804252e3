import { LoaderCircle } from "lucide-react";
import type { FormEvent } from "react";

import { buttonClass } from "~/ui/button";

import {
  CONTACT_FIELD_NAMES,
  CONTACT_FIELDS,
  CONTACT_HONEYPOT,
  CONTACT_TEXT,
  type ContactField,
} from "./message";
import type { useContactForm } from "./use-contact-form";

const field =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const label = "block text-sm font-medium text-slate-800 dark:text-slate-200";

type Bind = ReturnType<typeof useContactForm>["bind"];

/** Each field's control. */
const CONTROLS: Record<ContactField, { type?: "text" | "email"; autoComplete?: string }> = {
  name: { type: "text", autoComplete: "name" },
  email: { type: "email", autoComplete: "email" },
  message: {},
};

/** One labelled field; the message is a textarea, the others inputs. */
function FieldControl({ name, bind }: { name: ContactField; bind: Bind }) {
  const id = `contact-${name}`;
  const { type, autoComplete } = CONTROLS[name];
  return (
    <div>
      <label htmlFor={id} className={label}>
        {CONTACT_FIELDS[name].label}
      </label>
      {type ? (
        <input id={id} type={type} autoComplete={autoComplete} className={field} {...bind(name)} />
      ) : (
        <textarea id={id} rows={5} className={field} {...bind(name)} />
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

/** Disabled with a spinner and `Enviando...` while the message is on its way. */
function SendButton({ sending }: { sending: boolean }) {
  return (
    <button type="submit" disabled={sending} className={buttonClass({ size: "lg" })}>
      {sending ? (
        <>
          <LoaderCircle aria-hidden="true" data-testid="spinner" className="size-4 animate-spin" />
          {CONTACT_TEXT.sending}
        </>
      ) : (
        CONTACT_TEXT.send
      )}
    </button>
  );
}

/**
 * The form itself. Without JavaScript it posts to the home page, whose action answers with the
 * same outcome; with it, `onSubmit` sends it to /api/contact.
 */
export function ContactForm({
  bind,
  sending,
  onSubmit,
}: {
  bind: Bind;
  sending: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form method="post" action="/?index" onSubmit={onSubmit} className="space-y-4" noValidate>
      {CONTACT_FIELD_NAMES.map((name) => (
        <FieldControl key={name} name={name} bind={bind} />
      ))}
      <Honeypot />
      <SendButton sending={sending} />
    </form>
  );
}

import { LoaderCircle, Mail } from "lucide-react";
import { useState, type ChangeEvent, type FormEvent } from "react";

import { CONTACT_TOAST_DURATION_MS } from "~/lib/constants";
import {
  CONTACT_FIELDS,
  CONTACT_HONEYPOT,
  CONTACT_TEXT,
  contactFailure,
  contactProblem,
  EMPTY_CONTACT,
  type ContactField,
  type ContactInput,
  type ContactOutcome,
} from "~/features/contact/message";
import { NEW_TAB_SOCIALS, type HomeProfile } from "~/features/site";

import { NewTabLink } from "~/ui/external-link";
import { SocialGlyph } from "~/features/profile";
import { Toast } from "~/ui/toast";
import { Section } from "~/ui/section";
import { buttonClass } from "~/ui/button";

const field =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const label = "block text-sm font-medium text-slate-800 dark:text-slate-200";

/**
 * The contact form (docs/product.md, Texts): checks in order, then sends to /api/contact; while
 * sending the button is disabled with a spinner and `Enviando...`; success clears the fields,
 * failure keeps them; each ends in a toast of CONTACT_TOAST_DURATION_MS. Without JavaScript the
 * form posts to the home page, which answers with the same toast (`initial`).
 */
export function Contact({
  initial,
  site,
}: {
  initial?: { outcome: ContactOutcome; fields: ContactInput };
  site: Pick<HomeProfile, "email" | "socials">;
}) {
  const [fields, setFields] = useState<ContactInput>(
    initial && !initial.outcome.ok ? initial.fields : EMPTY_CONTACT,
  );
  const [sending, setSending] = useState(false);
  const [toast, setToast] = useState<{ outcome: ContactOutcome; visible: boolean } | null>(
    initial ? { outcome: initial.outcome, visible: true } : null,
  );
  const show = (outcome: ContactOutcome) => setToast({ outcome, visible: true });
  const failed = (message?: string) => show(contactFailure(message));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = contactProblem(fields);
    if (problem) return failed(problem);
    setSending(true);
    try {
      const body = new URLSearchParams(fields);
      const honeypot = new FormData(event.currentTarget).get(CONTACT_HONEYPOT);
      if (typeof honeypot === "string" && honeypot) body.set(CONTACT_HONEYPOT, honeypot);
      const response = await fetch("/api/contact", { method: "POST", body });
      const result = (await response.json().catch(() => null)) as ContactOutcome | null;
      if (!response.ok || !result?.ok)
        throw new Error(result?.message ?? `HTTP ${response.status}`);
      setFields(EMPTY_CONTACT);
      show(result);
    } catch (error) {
      console.error("Error sending the contact message:", error);
      failed();
    } finally {
      setSending(false);
    }
  }

  const directLinks = site.socials.filter((s) => !NEW_TAB_SOCIALS.includes(s.kind));
  const bind = (key: ContactField) => ({
    name: key,
    value: fields[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setFields((f) => ({ ...f, [key]: e.target.value })),
  });
  return (
    <Section id="contact" title={CONTACT_TEXT.heading}>
      <div className="grid gap-8 md:grid-cols-2">
        <form method="post" action="/?index" onSubmit={submit} className="space-y-4" noValidate>
          <div>
            <label htmlFor="contact-name" className={label}>
              {CONTACT_FIELDS.name.label}
            </label>
            <input
              id="contact-name"
              type="text"
              autoComplete="name"
              className={field}
              {...bind("name")}
            />
          </div>
          <div>
            <label htmlFor="contact-email" className={label}>
              {CONTACT_FIELDS.email.label}
            </label>
            <input
              id="contact-email"
              type="email"
              autoComplete="email"
              className={field}
              {...bind("email")}
            />
          </div>
          <div>
            <label htmlFor="contact-message" className={label}>
              {CONTACT_FIELDS.message.label}
            </label>
            <textarea id="contact-message" rows={5} className={field} {...bind("message")} />
          </div>
          {/* The honeypot: hidden from people and assistive technology; bots fill it in. */}
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
          <button type="submit" disabled={sending} className={buttonClass({ size: "lg" })}>
            {sending ? (
              <>
                <LoaderCircle
                  aria-hidden="true"
                  data-testid="spinner"
                  className="size-4 animate-spin"
                />
                {CONTACT_TEXT.sending}
              </>
            ) : (
              CONTACT_TEXT.send
            )}
          </button>
        </form>
        <div>
          <p className="text-slate-700 dark:text-slate-300">{CONTACT_TEXT.otherWays}</p>
          <ul className="mt-4 space-y-3" data-testid="contact-links">
            <li>
              <a
                href={`mailto:${site.email}`}
                className="inline-flex items-center gap-2 text-sky-800 hover:underline dark:text-sky-300"
              >
                <Mail aria-hidden="true" className="size-5" />
                {site.email}
              </a>
            </li>
            {directLinks.map((link, i) => (
              <li key={`${link.kind}-${i}`}>
                <a
                  href={link.url}
                  className="inline-flex items-center gap-2 text-sky-800 hover:underline dark:text-sky-300"
                >
                  <SocialGlyph kind={link.kind} className="size-5" />
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      {toast ? (
        <Toast
          type={toast.outcome.ok ? "success" : "error"}
          message={toast.outcome.message}
          isVisible={toast.visible}
          duration={CONTACT_TOAST_DURATION_MS}
          onClose={() => setToast((t) => (t ? { ...t, visible: false } : t))}
        />
      ) : null}
    </Section>
  );
}

/** The microblogging and photo-sharing profiles, each in a new tab. */
export function SocialLinks({ socials }: Pick<HomeProfile, "socials">) {
  const newTab = socials.filter((s) => NEW_TAB_SOCIALS.includes(s.kind));
  return (
    <nav aria-label="Social links" className="py-8">
      <ul className="flex justify-center gap-4">
        {newTab.map((link, i) => (
          <li key={`${link.kind}-${i}`}>
            <NewTabLink
              href={link.url}
              aria-label={`${link.label} (opens in a new tab)`}
              className="inline-flex size-12 items-center justify-center rounded-full border border-slate-300 text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <SocialGlyph kind={link.kind} className="size-5" />
            </NewTabLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

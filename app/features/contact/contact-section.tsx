import { Mail } from "lucide-react";
import { useEffect, useRef } from "react";

import { NEW_TAB_SOCIALS, type HomeProfile } from "~/features/site";
import { SocialGlyph } from "~/features/profile";
import { ToastView } from "~/ui/toast";
import { Section } from "~/ui/section";

import { ContactForm } from "./contact-form";
import { attachContactForm, CONTACT_SCRIPT_CONFIG } from "./contact-script";
import {
  checkContact,
  CONTACT_TEXT,
  EMPTY_CONTACT,
  type ContactInput,
  type ContactOutcome,
} from "./message";

/** What the home page's action answered a form posted without JavaScript. */
export type ContactInitial = { outcome: ContactOutcome; fields: ContactInput };

type ContactSite = Pick<HomeProfile, "email" | "socials">;

const link = "inline-flex items-center gap-2 text-sky-800 hover:underline dark:text-sky-300";

/** The other ways to write: the e-mail address and the profiles that open in this tab. */
function ContactLinks({ site }: { site: ContactSite }) {
  const directLinks = site.socials.filter((s) => !NEW_TAB_SOCIALS.includes(s.kind));
  return (
    <div>
      <p className="text-slate-700 dark:text-slate-300">{CONTACT_TEXT.otherWays}</p>
      <ul className="mt-4 space-y-3" data-testid="contact-links">
        <li>
          <a href={`mailto:${site.email}`} className={link}>
            <Mail aria-hidden="true" className="size-5" />
            {site.email}
          </a>
        </li>
        {directLinks.map((social, i) => (
          <li key={`${social.kind}-${i}`}>
            <a href={social.url} className={link}>
              <SocialGlyph kind={social.kind} className="size-5" />
              {social.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The contact section (docs/product.md, Texts): the form (./contact-form.tsx), the region its
 * toasts appear in, and the toasts' markup for the contact script (./contact-script.ts), which
 * gives the form its behaviour. The home page does not hydrate: its document runs the script
 * from the site script; a client-side navigation here runs it once the form is rendered.
 * Without JavaScript the form posts to the home page, which answers with the same toast
 * (`initial`) and, after a failure, the fields as sent.
 */
export function Contact({ initial, site }: { initial?: ContactInitial; site: ContactSite }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (form.current) attachContactForm(form.current, CONTACT_SCRIPT_CONFIG, checkContact);
  }, []);
  const fields = initial && !initial.outcome.ok ? initial.fields : EMPTY_CONTACT;
  return (
    <Section id="contact" title={CONTACT_TEXT.heading}>
      <div data-contact="">
        <div className="grid gap-8 md:grid-cols-2">
          <ContactForm ref={form} fields={fields} />
          <ContactLinks site={site} />
        </div>
        <div data-toast-region="" aria-live="polite">
          {initial ? (
            <ToastView
              type={initial.outcome.ok ? "success" : "error"}
              message={initial.outcome.message}
              shown
            />
          ) : null}
        </div>
        {(["success", "error"] as const).map((type) => (
          <template key={type} data-toast-template={type}>
            <ToastView type={type} message="" shown prototype />
          </template>
        ))}
      </div>
    </Section>
  );
}

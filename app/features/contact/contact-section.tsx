import { Mail } from "lucide-react";

import { CONTACT_TOAST_DURATION_MS } from "~/lib/constants";
import { NEW_TAB_SOCIALS, type HomeProfile } from "~/features/site";
import { SocialGlyph } from "~/features/profile";
import { Toast } from "~/ui/toast";
import { Section } from "~/ui/section";

import { ContactForm } from "./contact-form";
import { CONTACT_TEXT } from "./message";
import { useContactForm, type ContactInitial } from "./use-contact-form";

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
 * The contact section (docs/product.md, Texts): the form (./contact-form.tsx) checks in order,
 * then sends to /api/contact; while sending the button is disabled with a spinner and
 * `Enviando...`; success clears the fields, failure keeps them; each ends in a toast of
 * CONTACT_TOAST_DURATION_MS. Without JavaScript the form posts to the home page, which answers
 * with the same toast (`initial`).
 */
export function Contact({ initial, site }: { initial?: ContactInitial; site: ContactSite }) {
  const { submit, bind, sending, toast, hideToast } = useContactForm(initial);
  return (
    <Section id="contact" title={CONTACT_TEXT.heading}>
      <div className="grid gap-8 md:grid-cols-2">
        <ContactForm bind={bind} sending={sending} onSubmit={submit} />
        <ContactLinks site={site} />
      </div>
      {toast ? (
        <Toast
          type={toast.outcome.ok ? "success" : "error"}
          message={toast.outcome.message}
          isVisible={toast.visible}
          duration={CONTACT_TOAST_DURATION_MS}
          onClose={hideToast}
        />
      ) : null}
    </Section>
  );
}

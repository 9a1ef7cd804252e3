import { Mail } from "lucide-react";

import { NEW_TAB_SOCIALS } from "~/lib/site";
import { site } from "~/site.config";

import { NewTabLink } from "../external-link";
import { SocialGlyph } from "../icons";
import { Section } from "../section";

const field =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const label = "block text-sm font-medium text-slate-800 dark:text-slate-200";

/** The contact form and the other ways to reach the owner. Submission: the contact desk issue. */
export function Contact() {
  const directLinks = site.socials.filter((s) => !NEW_TAB_SOCIALS.includes(s.kind));
  return (
    <Section id="contact" title="Contact">
      <div className="grid gap-8 md:grid-cols-2">
        <form method="post" className="space-y-4" noValidate>
          <div>
            <label htmlFor="contact-name" className={label}>
              Your Name
            </label>
            <input
              id="contact-name"
              name="name"
              type="text"
              autoComplete="name"
              className={field}
            />
          </div>
          <div>
            <label htmlFor="contact-email" className={label}>
              Your Email
            </label>
            <input
              id="contact-email"
              name="email"
              type="email"
              autoComplete="email"
              className={field}
            />
          </div>
          <div>
            <label htmlFor="contact-message" className={label}>
              Your Message
            </label>
            <textarea id="contact-message" name="message" rows={5} className={field} />
          </div>
          <button
            type="submit"
            className="inline-flex items-center gap-2 rounded-lg bg-sky-700 px-5 py-2.5 font-medium text-white hover:bg-sky-800 disabled:opacity-60 dark:bg-sky-400 dark:text-slate-950 dark:hover:bg-sky-300"
          >
            Send Message
          </button>
        </form>
        <div>
          <p className="text-slate-700 dark:text-slate-300">Or contact me through</p>
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
            {directLinks.map((link) => (
              <li key={link.kind}>
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
    </Section>
  );
}

/** The microblogging and photo-sharing profiles, each in a new tab (original §1). */
export function SocialLinks() {
  const newTab = site.socials.filter((s) => NEW_TAB_SOCIALS.includes(s.kind));
  return (
    <nav aria-label="Social links" className="py-8">
      <ul className="flex justify-center gap-4">
        {newTab.map((link) => (
          <li key={link.kind}>
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

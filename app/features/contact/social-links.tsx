import { NEW_TAB_SOCIALS, type HomeProfile } from "~/features/site";
import { SocialGlyph } from "~/features/profile";
import { NewTabLink } from "~/ui/external-link";

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

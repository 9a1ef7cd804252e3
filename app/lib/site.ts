/**
 * The shape of the site configuration (`app/site.config.ts`) and the one place its
 * defaults are filled in. Components read `site` from here, never the raw config.
 */

export type SkillIcon = "server" | "database" | "cloud" | "git-branch";
export type ToolIcon = "nodejs" | "ruby" | "python" | "docker" | "aws";
export type SocialKind =
  "microblogging" | "photo-sharing" | "code-hosting" | "professional-network";

export type SocialLink = {
  kind: SocialKind;
  /** Shown to screen readers and as the visible label. */
  label: string;
  url: string;
};

export type SiteConfig = {
  /** The owner's full name: the header link and the profile heading. */
  name: string;
  title: string;
  location: string;
  /** The About me summary, one string per paragraph. */
  about: string[];
  /** Profile photo. Default: the placeholder shipped in public/. A URL (e.g. a CDN) overrides it. */
  photoUrl?: string;
  /** Alternative text for the photo. Default: "Portrait of {name}". */
  photoAlt?: string;
  /** Curriculum vitae (PDF). Default: the file shipped in public/. A URL overrides it. */
  cvUrl?: string;
  email: string;
  socials: SocialLink[];
  skills: { name: string; icon: SkillIcon }[];
  tools: { name: string; icon: ToolIcon }[];
  /** Short text for search engines and share cards. Default: "{name}, {title} in {location}." */
  description?: string;
};

/** The photo's intrinsic size, so the browser reserves its box before it loads. */
export const PHOTO_SIZE = 160;

export const DEFAULT_PHOTO_URL = "/images/profile.svg";
export const DEFAULT_CV_URL = "/cv.pdf";

/**
 * Links that open in a new tab: the microblogging and photo-sharing profiles
 * (docs/product.md#home).
 */
export const NEW_TAB_SOCIALS: readonly SocialKind[] = ["microblogging", "photo-sharing"];

export function resolveSite(config: SiteConfig) {
  return {
    ...config,
    photoUrl: config.photoUrl ?? DEFAULT_PHOTO_URL,
    photoAlt: config.photoAlt ?? `Portrait of ${config.name}`,
    cvUrl: config.cvUrl ?? DEFAULT_CV_URL,
    description: config.description ?? `${config.name}, ${config.title} in ${config.location}.`,
  };
}

export type Site = ReturnType<typeof resolveSite>;

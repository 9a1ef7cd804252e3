/**
 * What the pages show of the owner, resolved in one place from the stored profile
 * (app/features/profile/profile.server.ts), its uploaded files, and the site configuration's overrides
 * (`app/site.config.ts`: a configured photo or CV URL, a CDN, wins over an upload).
 */

import type {
  SocialKind,
  ProfileContent,
  StoredCv,
  StoredPhoto,
  ToolGlyphData,
} from "~/features/profile";
import type { StoredShareCard } from "../../../database/schema";
import { shareImageOf, type ShareImage } from "~/features/cards";
import { mediaUrl } from "~/features/media";

/**
 * The site configuration: what a new database's profile starts as, and the two URLs that, when
 * set, always win over an uploaded file.
 */
export type SiteConfig = ProfileContent & {
  /** Profile photo served from elsewhere (a CDN); unset: the uploaded photo, or the placeholder. */
  photoUrl?: string;
  /** Curriculum vitae (PDF) served from elsewhere; unset: the uploaded CV, or the shipped file. */
  cvUrl?: string;
};

/** The photo's box on the home page, in CSS pixels, so the browser reserves it before it loads. */
export const PHOTO_SIZE = 160;

export const DEFAULT_PHOTO_URL = "/images/profile.svg";
export const DEFAULT_CV_URL = "/cv.pdf";

/**
 * Links that open in a new tab: the microblogging and photo-sharing profiles
 * (docs/product.md#home).
 */
export const NEW_TAB_SOCIALS: readonly SocialKind[] = ["microblogging", "photo-sharing"];

/** What every page shows of the owner (header, footer, titles, share cards): the root loader's. */
export type SiteIdentity = {
  name: string;
  title: string;
  location: string;
  email: string;
  /** For search engines and share cards: "{name}, {title} in {location}." */
  description: string;
  /** An image for share cards and JSON-LD (JPEG when uploaded), a path or an absolute URL. */
  shareImage: string;
  /** The home page's share card, once drawn (app/features/cards). */
  shareCard: ShareImage | null;
};

/** The photo as the home page draws it. */
export type SitePhoto = {
  src: string;
  srcSet?: string;
  sizes?: string;
  alt: string;
};

export type StoredFiles = {
  photo: StoredPhoto | null;
  cv: StoredCv | null;
  shareCard?: StoredShareCard | null;
};

export function siteIdentity(
  content: ProfileContent,
  files: StoredFiles,
  config: Pick<SiteConfig, "photoUrl">,
): SiteIdentity {
  const jpeg = files.photo?.files.find((f) => f.type === "image/jpeg");
  return {
    name: content.name,
    title: content.title,
    location: content.location,
    email: content.email,
    description: `${content.name}, ${content.title} in ${content.location}.`,
    shareImage: config.photoUrl ?? (jpeg ? mediaUrl(jpeg.hash, jpeg.type) : DEFAULT_PHOTO_URL),
    shareCard: files.shareCard ? shareImageOf(files.shareCard) : null,
  };
}

export function sitePhoto(
  content: Pick<ProfileContent, "name">,
  files: StoredFiles,
  config: Pick<SiteConfig, "photoUrl">,
): SitePhoto {
  const alt = `Portrait of ${content.name}`;
  if (config.photoUrl) return { src: config.photoUrl, alt };
  const webp = files.photo?.files.filter((f) => f.type === "image/webp") ?? [];
  const smallest = webp[0];
  if (!smallest) return { src: DEFAULT_PHOTO_URL, alt };
  return {
    src: mediaUrl(smallest.hash, smallest.type),
    srcSet: webp.map((f) => `${mediaUrl(f.hash, f.type)} ${f.width}w`).join(", "),
    sizes: `${PHOTO_SIZE}px`,
    alt,
  };
}

export function siteCvUrl(files: StoredFiles, config: Pick<SiteConfig, "cvUrl">): string {
  if (config.cvUrl) return config.cvUrl;
  return files.cv ? mediaUrl(files.cv.hash, "application/pdf") : DEFAULT_CV_URL;
}

/** Everything the home page shows of the owner (its loader's `profile`). */
export type HomeProfile = Pick<
  ProfileContent,
  "name" | "title" | "location" | "email" | "about" | "socials" | "skills"
> & {
  tools: { name: string; glyph: ToolGlyphData }[];
  photo: SitePhoto;
  cvUrl: string;
};

import type { Database } from "../../../database/db.server";
import { rememberedProfile, type StoredProfile } from "~/features/profile/index.server";
import { siteConfig } from "~/site.config";

import { siteIdentity, type SiteIdentity } from "./site";
import { errorMessage } from "~/lib/log.server";

/** The profile as a new database starts (site.config.ts), without files. */
export const SEED_PROFILE: StoredProfile = {
  name: siteConfig.name,
  title: siteConfig.title,
  location: siteConfig.location,
  email: siteConfig.email,
  about: siteConfig.about,
  socials: siteConfig.socials,
  skills: siteConfig.skills,
  tools: siteConfig.tools,
  photo: null,
  cv: null,
  shareCard: null,
  updatedAt: new Date(0),
};

/**
 * The stored profile. When the database cannot be read the page still renders, from the seed,
 * logged, with `onError` told (the page is then not cached).
 */
export async function readProfile(db: Database, onError?: () => void): Promise<StoredProfile> {
  try {
    return (await rememberedProfile(db)) ?? SEED_PROFILE;
  } catch (error) {
    console.error("Error fetching the profile:", errorMessage(error));
    onError?.();
    return SEED_PROFILE;
  }
}

/** What every page shows of the owner (the root loader's `site`). */
export async function readSiteIdentity(db: Database, onError?: () => void): Promise<SiteIdentity> {
  const stored = await readProfile(db, onError);
  return siteIdentity(stored, stored, siteConfig);
}

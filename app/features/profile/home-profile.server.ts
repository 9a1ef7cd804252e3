import { siteCvUrl, sitePhoto, type HomeProfile } from "~/features/site";
import { siteConfig } from "~/site.config";

import type { StoredProfile } from "./profile.server";
import { toolGlyph } from "./tool-icons";

/**
 * The profile as the home page shows it: the owner's text, each tool's mark drawn here (so the
 * page carries only the marks it shows), and the photo and CV the configuration or an upload
 * gives.
 */
export function homeProfile(stored: StoredProfile): HomeProfile {
  return {
    name: stored.name,
    title: stored.title,
    location: stored.location,
    email: stored.email,
    about: stored.about,
    socials: stored.socials,
    skills: stored.skills,
    tools: stored.tools.map((tool) => ({ name: tool.name, glyph: toolGlyph(tool) })),
    photo: sitePhoto(stored, stored, siteConfig),
    cvUrl: siteCvUrl(stored, siteConfig),
  };
}

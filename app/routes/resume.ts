import { appContext } from "~/context";
import { listEntries, toResume } from "~/features/profile/index.server";
import { absoluteUrl, DEFAULT_PHOTO_URL, siteIdentity } from "~/features/site";
import { readProfile } from "~/features/site/index.server";
import { siteConfig } from "~/site.config";

import type { Route } from "./+types/resume";

/**
 * The owner's résumé as a JSON Resume document (https://jsonresume.org), for recruiters' tools.
 * Public and cached like a page; the owner's export at /admin/profile downloads this.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, env, degraded } = context.get(appContext);
  const [stored, experiences, education] = await Promise.all([
    readProfile(db, degraded),
    listEntries(db, "experience"),
    listEntries(db, "education"),
  ]);
  const share = siteIdentity(stored, stored, siteConfig).shareImage;
  const resume = toResume({
    profile: stored,
    experiences,
    education,
    siteUrl: env.siteUrl,
    // The standard wants a JPEG or PNG: the placeholder drawing is neither.
    photoUrl: share === DEFAULT_PHOTO_URL ? null : absoluteUrl(env.siteUrl, share),
  });
  return new Response(`${JSON.stringify(resume, null, 2)}\n`, {
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

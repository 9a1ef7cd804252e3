import { useOutlet } from "react-router";

import { appContext } from "~/context";
import {
  ProfileEditor,
  TOOL_ICONS,
  toolGlyph,
  type ToolGlyphData,
  type ToolIcon,
} from "~/features/profile";
import { answerForm, editProfile, listEntries, pickContent } from "~/features/profile/index.server";
import { pageMeta, siteCvUrl, siteOf, sitePhoto } from "~/features/site";
import { fullHandle } from "~/features/social";
import { ownerHandle } from "~/features/social/index.server";
import { readProfile } from "~/features/site/index.server";
import { siteConfig } from "~/site.config";

import type { Route } from "./+types/admin.profile";

/**
 * The owner's editor of the résumé. Every section's form posts to its own route, a child of
 * this one (app/routes.ts): the photo, the CV, each timeline, the JSON Resume import. The
 * profile form posts here.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, env } = context.get(appContext);
  const [stored, experiences, education, handle] = await Promise.all([
    readProfile(db),
    listEntries(db, "experience"),
    listEntries(db, "education"),
    ownerHandle(db),
  ]);
  return {
    profile: pickContent(stored),
    photo: {
      ...sitePhoto(stored, stored, siteConfig),
      uploaded: stored.photo !== null,
      configured: Boolean(siteConfig.photoUrl),
    },
    cv: {
      url: siteCvUrl(stored, siteConfig),
      uploaded: stored.cv !== null,
      configured: Boolean(siteConfig.cvUrl),
    },
    experiences,
    education,
    fediverse: { handle, address: fullHandle(handle, env.siteUrl) },
    // Drawn here: the marks' paths would otherwise share a chunk with the home page's icons.
    toolGlyphs: Object.fromEntries(
      (Object.keys(TOOL_ICONS) as ToolIcon[]).map((icon) => [icon, toolGlyph({ name: "", icon })]),
    ) as Record<ToolIcon, ToolGlyphData>,
  };
}

/** The profile form's Save; only the owner may. */
export async function action({ request, context }: Route.ActionArgs) {
  return answerForm(request, (form) => editProfile(context.get(appContext).db, form));
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/admin/profile",
    title: `Profile · ${site.name}`,
    description: "Edit the profile, experience and education.",
    noindex: true,
  });
}

/**
 * Every section, drawn here, or by the section's route once a form was posted to it without
 * JavaScript: only that route's component can read its action's result (useActionData).
 */
export default function AdminProfile({ loaderData }: Route.ComponentProps) {
  return useOutlet() ?? <ProfileEditor {...loaderData} />;
}

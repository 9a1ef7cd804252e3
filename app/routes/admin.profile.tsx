import { data } from "react-router";

import { appContext } from "~/context";
import { requireOwnerPage, requireOwnerWrite } from "~/features/owner/index.server";
import {
  ProfileEditor,
  TOOL_ICONS,
  toolGlyph,
  type FormResult,
  type ToolGlyphData,
  type ToolIcon,
} from "~/features/profile";
import {
  handleProfileAction,
  listExperiences,
  listEducation,
  pickContent,
} from "~/features/profile/index.server";
import { pageMeta, siteCvUrl, siteOf, sitePhoto } from "~/features/site";
import { readProfile } from "~/features/site/index.server";
import { siteConfig } from "~/site.config";

import type { Route } from "./+types/admin.profile";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwnerPage(request, context);
  const { db } = context.get(appContext);
  const [stored, experiences, education] = await Promise.all([
    readProfile(db),
    listExperiences(db),
    listEducation(db),
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
    // Drawn here: the marks' paths would otherwise share a chunk with the home page's icons.
    toolGlyphs: Object.fromEntries(
      (Object.keys(TOOL_ICONS) as ToolIcon[]).map((icon) => [icon, toolGlyph({ name: "", icon })]),
    ) as Record<ToolIcon, ToolGlyphData>,
  };
}

/** Every button of the page posts here with its `intent`; only the owner may. */
export async function action({ request, context }: Route.ActionArgs) {
  // Before the body is read: a stranger's upload is not even received.
  await requireOwnerWrite(request, context);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<FormResult>(
      { form: "form", ok: false, message: "The form could not be read." },
      { status: 400 },
    );
  }
  const { status, result } = await handleProfileAction(context.get(appContext).db, form);
  return data(result, { status });
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

export default function AdminProfile({ loaderData }: Route.ComponentProps) {
  return <ProfileEditor {...loaderData} />;
}

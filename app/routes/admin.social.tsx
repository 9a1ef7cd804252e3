import { SOCIAL_PATH, SOCIAL_TEXT, SocialAdmin } from "~/features/social";
import { socialAdminAction, socialAdminData } from "~/features/social/index.server";
import { pageMeta, siteOf } from "~/features/site";

import type { Route } from "./+types/admin.social";

export const loader = ({ request, context }: Route.LoaderArgs) => socialAdminData(request, context);

/** Remove or block a follower, decide on a response, lift a block: then back to the page. */
export const action = ({ request, context }: Route.ActionArgs) =>
  socialAdminAction(request, context);

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: SOCIAL_PATH,
    title: `${SOCIAL_TEXT.title} · ${site.name}`,
    description: "Followers, responses to moderate, blocks.",
    noindex: true,
  });
}

export default function Social({ loaderData, actionData }: Route.ComponentProps) {
  return <SocialAdmin data={loaderData} error={actionData?.error} />;
}

import { ADMIN_TEXT, SubscribersAdmin } from "~/features/subscribers";
import { subscriberAdminAction, subscriberAdminData } from "~/features/subscribers/index.server";
import { pageMeta, siteOf } from "~/features/site";

import type { Route } from "./+types/admin.subscribers";

export const loader = ({ request, context }: Route.LoaderArgs) =>
  subscriberAdminData(request, context);

/** Remove an address, preview a CSV import, import the previewed addresses. */
export const action = ({ request, context }: Route.ActionArgs) =>
  subscriberAdminAction(request, context);

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/admin/subscribers",
    title: `${ADMIN_TEXT.title} · ${site.name}`,
    description: "E-mail subscribers.",
    noindex: true,
  });
}

export default function Subscribers({ loaderData, actionData }: Route.ComponentProps) {
  return <SubscribersAdmin data={loaderData} action={actionData} />;
}

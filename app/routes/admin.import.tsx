import { IMPORT_TEXT, ImportAdmin } from "~/features/import";
import { importAdminAction, importAdminData } from "~/features/import/index.server";
import { pageMeta, siteOf } from "~/features/site";

import type { Route } from "./+types/admin.import";

export const loader = ({ context }: Route.LoaderArgs) => importAdminData(context);

/** A dry run of an uploaded export, or `Import` of that dry run. */
export const action = ({ request, context }: Route.ActionArgs) =>
  importAdminAction(request, context);

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/admin/import",
    title: `${IMPORT_TEXT.title} · ${site.name}`,
    description: "Import posts from another blog.",
    noindex: true,
  });
}

export default function Import({ loaderData, actionData }: Route.ComponentProps) {
  return <ImportAdmin latest={loaderData.latest} action={actionData} />;
}

import { appContext } from "~/context";
import { readBlogQuery } from "~/lib/pagination";
import { OWNER_PAGE_SIZE, TRASH_PATH, TrashList } from "~/features/posts";
import { pageMeta, siteOf } from "~/features/site";
import { answerTrashForm, listTrash } from "~/features/posts/index.server";

import type { Route } from "./+types/admin.posts.trash";

/** `/admin/posts/trash`: the posts the owner deleted, the most recent first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const page = readBlogQuery(new URL(request.url).searchParams).page ?? 1;
  const result = await listTrash(context.get(appContext).db, { page, pageSize: OWNER_PAGE_SIZE });
  return { page, ...result };
}

/** Restore, Delete forever, and (without JavaScript) the confirmation before it. */
export async function action({ request, context }: Route.ActionArgs) {
  return answerTrashForm(context.get(appContext).db, request);
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: TRASH_PATH,
    title: `Trash · ${site.name}`,
    description: "Deleted posts, kept for a while.",
    noindex: true,
  });
}

export default function Trash({ loaderData, actionData }: Route.ComponentProps) {
  return <TrashList {...loaderData} result={actionData} />;
}

import { appContext } from "~/context";
import { parseSerialId } from "~/lib/ids";
import { readBlogQuery } from "~/lib/pagination";
import { OWNER_PAGE_SIZE, OwnerPostList } from "~/features/posts";
import { pageMeta, siteOf } from "~/features/site";
import { countTrash, findTrashed, listOwnerPosts } from "~/features/posts/index.server";
import { newsletterCounts } from "~/features/subscribers/index.server";

import type { Route } from "./+types/admin.posts";

/**
 * `/admin/posts`: every post, drafts and scheduled ones included, newest first, and how many are
 * in the trash. `?trashed={id}` (where the editor's Delete lands) names the post just deleted,
 * for the notice that offers it back while it is still in the trash. A post sent to subscribers
 * shows how many of its mails were sent, are pending and failed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const params = new URL(request.url).searchParams;
  const page = readBlogQuery(params).page ?? 1;
  const trashedId = parseSerialId(params.get("trashed") ?? undefined);
  const [result, trashCount, trashed] = await Promise.all([
    listOwnerPosts(db, { page, pageSize: OWNER_PAGE_SIZE }),
    countTrash(db),
    trashedId === null ? null : findTrashed(db, trashedId),
  ]);
  const newsletters = await newsletterCounts(
    db,
    result.posts.map((p) => p.id),
  );
  const posts = result.posts.map((p) => ({ ...p, newsletter: newsletters.get(p.id) ?? null }));
  return { page, ...result, posts, trashCount, trashed };
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/admin/posts",
    title: `Posts · ${site.name}`,
    description: "Every post, drafts included.",
    noindex: true,
  });
}

export default function OwnerPosts({ loaderData }: Route.ComponentProps) {
  return <OwnerPostList {...loaderData} />;
}

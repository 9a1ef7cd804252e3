import { appContext } from "~/context";
import { readBlogQuery } from "~/lib/pagination";
import { OwnerPostList } from "~/features/posts";
import { pageMeta, siteOf } from "~/features/site";
import { listOwnerPosts } from "~/features/posts/index.server";

import type { Route } from "./+types/admin.posts";

/** Posts per page of the owner's list. */
export const OWNER_PAGE_SIZE = 20;

/** `/admin/posts`: every post, drafts and scheduled ones included, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const page = readBlogQuery(new URL(request.url).searchParams).page ?? 1;
  const result = await listOwnerPosts(context.get(appContext).db, {
    page,
    pageSize: OWNER_PAGE_SIZE,
  });
  return { page, ...result };
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
  const { posts, page, pageCount, total } = loaderData;
  return <OwnerPostList posts={posts} page={page} pageCount={pageCount} total={total} />;
}

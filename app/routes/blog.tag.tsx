import { data, redirect } from "react-router";

import { appContext } from "~/context";
import { feedAlternates, isTag, tagPath, TagPage } from "~/features/posts";
import { listTagPage, type PostPage } from "~/features/posts/index.server";
import { pageMeta, siteOf } from "~/features/site";
import { errorMessage } from "~/lib/log.server";
import { blogHref, readBlogQuery } from "~/lib/pagination";

import type { Route } from "./+types/blog.tag";

/** `/blog/tags/{tag}`: a tag's published posts, newest first, paged like the blog. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const tag = params.tag;
  const path = tagPath(tag);
  if (!isTag(tag))
    return data({ tag, page: 1, posts: [], total: 0, pageCount: 0 }, { status: 404 });
  // As app/route-policy.ts declares for the page cache's key (`page` alone).
  const query = readBlogQuery(new URL(request.url).searchParams);
  if (query.page === null) throw redirect(path);
  const page = query.page;

  let result: PostPage;
  try {
    result = await listTagPage(context.get(appContext).db, { tag, page });
  } catch (error) {
    console.error("Error fetching posts:", errorMessage(error));
    return data({ tag, page, posts: [], total: 0, pageCount: 0 }, { status: 500 });
  }
  const body = { tag, page, ...result };
  // A tag no published post has, or a page past the last.
  if (result.total === 0 || page > result.pageCount) return data(body, { status: 404 });
  return body;
}

export function meta({ loaderData, matches, params }: Route.MetaArgs) {
  const site = siteOf(matches);
  const tag = loaderData?.tag ?? params.tag;
  const page = loaderData?.page ?? 1;
  const found = (loaderData?.total ?? 0) > 0;
  return [
    ...pageMeta({
      site,
      siteUrl: matches[0].loaderData.siteUrl,
      path: blogHref({ page, path: tagPath(tag) }),
      title: [`#${tag}`, page > 1 ? `Page ${page}` : null, "Blog", site.name]
        .filter(Boolean)
        .join(" · "),
      description: `Posts by ${site.name} tagged ${tag}.`,
      noindex: !found,
    }),
    ...(found ? feedAlternates(site.name, tag).map((link) => ({ tagName: "link", ...link })) : []),
  ];
}

export default function TagPosts({ loaderData }: Route.ComponentProps) {
  const { tag, posts, page, pageCount, total } = loaderData;
  return <TagPage tag={tag} posts={posts} page={page} pageCount={pageCount} total={total} />;
}

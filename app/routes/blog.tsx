import { data, redirect } from "react-router";

import { appContext } from "~/context";
import { BlogIndex } from "~/features/posts";
import { listPostsPage, type PostPage } from "~/features/posts/index.server";
import { pageMeta, siteOf } from "~/features/site";
import { SubscribeForm } from "~/features/subscribers";
import { errorMessage } from "~/lib/log.server";
import { blogHref, readBlogQuery } from "~/lib/pagination";

import type { Route } from "./+types/blog";

export async function loader({ context, request }: Route.LoaderArgs) {
  // As app/route-policy.ts declares for the page cache's key: both read readBlogQuery's rules.
  const query = readBlogQuery(new URL(request.url).searchParams);
  const search = query.search;
  if (query.page === null) throw redirect(blogHref({ search }));
  const page = query.page;

  let result: PostPage;
  try {
    result = await listPostsPage(context.get(appContext).db, { page, search });
  } catch (error) {
    console.error("Error fetching posts:", errorMessage(error));
    return data({ page, search, posts: [], total: 0, pageCount: 0 }, { status: 500 });
  }
  const body = { page, search, ...result };
  // A page past the last (page 1 of an empty list is simply empty).
  if (page > 1 && page > result.pageCount) return data(body, { status: 404 });
  return body;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  const page = loaderData?.page ?? 1;
  const search = loaderData?.search ?? "";
  const title = [search ? `Search: ${search}` : "Blog", page > 1 ? `Page ${page}` : null, site.name]
    .filter(Boolean)
    .join(" · ");
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: blogHref({ page, search }),
    title,
    description: `Posts by ${site.name}, ${site.title} in ${site.location}.`,
    // Search results are not pages of their own for search engines.
    noindex: search !== "",
  });
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { posts, page, pageCount, search } = loaderData;
  return (
    <>
      <BlogIndex posts={posts} page={page} pageCount={pageCount} search={search} />
      <SubscribeForm />
    </>
  );
}

import { Plus } from "lucide-react";
import { data, Form, Link, redirect } from "react-router";

import { useIsOwner } from "~/features/site";
import { PostList } from "~/features/posts";
import { appContext } from "~/context";
import { SEARCH_MAX_LENGTH } from "~/lib/constants";
import { errorMessage } from "~/lib/log.server";
import { blogHref, readBlogQuery } from "~/lib/pagination";
import { pageMeta } from "~/features/site";
import { siteOf } from "~/features/site";
import { listPostsPage, type PostPage } from "~/features/posts/index.server";

import type { Route } from "./+types/blog";
import { buttonClass } from "~/ui/button";

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
  const owner = useIsOwner();

  return (
    <div className="py-12">
      <div className="flex items-center justify-between gap-4">
        <div className="flex flex-wrap items-baseline gap-x-4">
          <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">Blog</h1>
          <Link
            to="/blog/tags"
            className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
          >
            Tags
          </Link>
        </div>
        {owner ? (
          <Link to="/blog/new" className={buttonClass()}>
            <Plus aria-hidden="true" className="size-4" />
            New post
          </Link>
        ) : null}
      </div>
      <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <Form method="get" action="/blog">
          <button
            type="submit"
            aria-pressed={search === ""}
            className="rounded-full border border-sky-700 px-4 py-2 text-sm font-medium text-sky-800 aria-pressed:bg-sky-700 aria-pressed:text-white dark:border-sky-400 dark:text-sky-300 dark:aria-pressed:bg-sky-400 dark:aria-pressed:text-slate-950"
          >
            All Posts
          </button>
        </Form>
        <Form method="get" action="/blog" role="search" className="flex items-end gap-2">
          <div>
            <label
              htmlFor="blog-search"
              className="block text-sm font-medium text-slate-800 dark:text-slate-200"
            >
              Search posts
            </label>
            <input
              id="blog-search"
              key={search}
              name="q"
              type="search"
              defaultValue={search}
              maxLength={SEARCH_MAX_LENGTH}
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 sm:w-72 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            />
          </div>
          <button type="submit" className={buttonClass()}>
            Search
          </button>
        </Form>
      </div>

      <PostList
        posts={posts}
        page={page}
        pageCount={pageCount}
        search={search}
        emptyText="No posts found matching your criteria"
      />
    </div>
  );
}

import { Form, Link } from "react-router";

import { useIsOwner } from "~/features/site";
import { SEARCH_MAX_LENGTH } from "~/lib/constants";
import { buttonClass } from "~/ui/button";

import { NewPostLink } from "./new-post-link";
import { PostList } from "./post-list";
import type { PostCardData } from "./post-card";

/** `/blog`: the list of posts (or a search's), with the way to all posts, search and tags. */
export function BlogIndex({
  posts,
  page,
  pageCount,
  search,
}: {
  posts: (PostCardData & { id: number })[];
  page: number;
  pageCount: number;
  search: string;
}) {
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
        {owner ? <NewPostLink /> : null}
      </div>
      <BlogSearch search={search} />

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

/** All posts, or a search: plain GET forms, so they work before and without JavaScript. */
function BlogSearch({ search }: { search: string }) {
  return (
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
  );
}

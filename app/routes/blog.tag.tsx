import { data, Link, redirect } from "react-router";

import { PostList } from "~/features/posts";
import { appContext } from "~/context";
import { feedAlternates, FEED_FORMATS, feedPath } from "~/features/posts";
import { formatCount } from "~/lib/format";
import { errorMessage } from "~/lib/log.server";
import { blogHref, readBlogQuery } from "~/lib/pagination";
import { isTag, tagPath } from "~/features/posts";
import { pageMeta } from "~/features/site";
import { siteOf } from "~/features/site";
import { listTagPage, type PostPage } from "~/features/posts/index.server";

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

  return (
    <div className="py-12">
      <Link
        to="/blog/tags"
        className="text-sm font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
      >
        All tags
      </Link>
      <h1 className="mt-2 text-3xl font-bold break-words text-slate-900 sm:text-4xl dark:text-white">
        Posts tagged #{tag}
      </h1>
      {total > 0 ? (
        <p className="mt-2 flex flex-wrap gap-x-3 text-slate-600 dark:text-slate-400">
          <span>{total === 1 ? "1 post" : `${formatCount(total)} posts`}</span>
          <span>
            Follow:{" "}
            {FEED_FORMATS.map((format, i) => (
              <span key={format.file}>
                {i > 0 ? ", " : null}
                {/* A file, not a page of the app: the browser fetches it. */}
                <a
                  href={feedPath(format, tag)}
                  className="text-sky-800 underline underline-offset-2 dark:text-sky-300"
                >
                  {format.label}
                </a>
              </span>
            ))}
          </span>
        </p>
      ) : null}
      <PostList
        posts={posts}
        page={page}
        pageCount={pageCount}
        path={tagPath(tag)}
        emptyText="No posts have this tag."
      />
    </div>
  );
}

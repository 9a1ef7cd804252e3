import { data, Link } from "react-router";

import { appContext } from "~/context";
import { formatCount } from "~/lib/format";
import { errorMessage } from "~/lib/log.server";
import { tagPath } from "~/features/posts";
import { pageMeta } from "~/features/site";
import { siteOf } from "~/features/site";
import { listTags } from "~/features/posts/index.server";

import type { Route } from "./+types/blog.tags";

/** `/blog/tags`: every tag of a published post, with how many posts have it. */
export async function loader({ context }: Route.LoaderArgs) {
  try {
    return { tags: await listTags(context.get(appContext).db) };
  } catch (error) {
    console.error("Error fetching tags:", errorMessage(error));
    return data({ tags: [] }, { status: 500 });
  }
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/blog/tags",
    title: `Tags · Blog · ${site.name}`,
    description: `The topics ${site.name} writes about.`,
  });
}

export default function Tags({ loaderData }: Route.ComponentProps) {
  const { tags } = loaderData;
  return (
    <div className="py-12">
      <Link
        to="/blog"
        className="text-sm font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
      >
        Back to Blog
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">Tags</h1>
      {tags.length === 0 ? (
        <p className="mt-8 text-slate-600 dark:text-slate-400">No post has a tag yet.</p>
      ) : (
        <ul className="mt-8 flex flex-wrap gap-3" data-testid="tag-list">
          {tags.map(({ tag, count }) => (
            <li key={tag}>
              <Link
                to={tagPath(tag)}
                className="inline-flex items-center gap-2 rounded-full border border-slate-300 bg-white px-4 py-2 font-medium text-slate-900 hover:border-sky-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:border-sky-400"
              >
                #{tag}{" "}
                <span className="text-sm text-slate-600 dark:text-slate-400">
                  {formatCount(count)}
                  <span className="sr-only">{count === 1 ? " post" : " posts"}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { Link } from "react-router";

import { formatCount } from "~/lib/format";

import { tagPath } from "./publishing";

/** `/blog/tags`: every tag of a published post, with how many posts have it. */
export function TagIndex({ tags }: { tags: { tag: string; count: number }[] }) {
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

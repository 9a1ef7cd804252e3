import { Link } from "react-router";

import { formatCount } from "~/lib/format";

import { FEED_FORMATS, feedPath } from "./feeds";
import type { PostCardData } from "./post-card";
import { PostList } from "./post-list";
import { tagPath } from "./publishing";

/** `/blog/tags/{tag}`: a tag's posts, paged, with its feeds. */
export function TagPage({
  tag,
  posts,
  page,
  pageCount,
  total,
}: {
  tag: string;
  posts: (PostCardData & { id: number })[];
  page: number;
  pageCount: number;
  total: number;
}) {
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

import { Link } from "react-router";

import { PostDate } from "../post-date";
import { postPath } from "../publishing";
import type { RelatedPost } from "./post-view";

/** Up to three other posts: those sharing the most tags, then the newest. */
export function RelatedPosts({ posts }: { posts: RelatedPost[] }) {
  return (
    <aside
      aria-labelledby="related-heading"
      className="mt-12 border-t border-slate-200 pt-8 dark:border-slate-800"
    >
      <h2 id="related-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Related posts
      </h2>
      <ul className="mt-4 space-y-3">
        {posts.map((post) => (
          <li key={post.slug}>
            <Link
              to={postPath(post.slug)}
              className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
            >
              {post.title}
            </Link>
            <PostDate
              date={post.publishedAt}
              className="ml-2 text-sm text-slate-600 dark:text-slate-400"
            />
          </li>
        ))}
      </ul>
    </aside>
  );
}

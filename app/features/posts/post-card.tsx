import { Link } from "react-router";

import { PostDate } from "./post-date";
import { postPath } from "./publishing";
import { markedParts } from "./search-query";
import { TagLinks } from "./tag-links";

export type PostCardData = {
  slug: string;
  title: string;
  description: string | null;
  publishedAt: Date | string;
  tags: string[];
  match: { title: string; snippet: string } | null;
};

/** Text with the words a search matched in `<mark>`, as React text (never raw HTML). */
function Marked({ text }: { text: string }) {
  return markedParts(text).map((part, i) =>
    part.marked ? (
      <mark
        key={i}
        className="rounded-sm bg-amber-200 px-0.5 text-inherit dark:bg-amber-700 dark:text-white"
      >
        {part.text}
      </mark>
    ) : (
      part.text
    ),
  );
}

/**
 * A post in a list: its title, description (or, for a search, a snippet where the words
 * matched), date and tags. The card is one link to the post; the tags, links of their own,
 * sit under it.
 */
export function PostCard({ post }: { post: PostCardData }) {
  return (
    <article className="rounded-xl border border-slate-200 bg-white hover:border-sky-600 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-sky-400">
      <Link to={postPath(post.slug)} className="block p-5">
        <h2 className="text-xl font-semibold text-slate-900 dark:text-white">
          {post.match ? <Marked text={post.match.title} /> : post.title}
        </h2>
        <p className="mt-2 line-clamp-2 text-slate-700 dark:text-slate-300">
          {post.match ? (
            <Marked text={post.match.snippet} />
          ) : (
            post.description || "No description available"
          )}
        </p>
        <PostDate
          date={post.publishedAt}
          className="mt-3 block text-sm text-slate-600 dark:text-slate-400"
        />
      </Link>
      {post.tags.length > 0 ? <TagLinks tags={post.tags} className="-mt-2 px-5 pb-5" /> : null}
    </article>
  );
}

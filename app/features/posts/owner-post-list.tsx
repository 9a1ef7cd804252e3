import { Pencil } from "lucide-react";
import { Link } from "react-router";

import { formatDateTime, formatLongDate } from "~/lib/format";
import { Pagination } from "~/ui/pagination";

import { NewPostLink } from "./new-post-link";
import { PostListsNav } from "./post-lists-nav";
import { postPath, PUBLISH_TEXT, type PublishState } from "./publishing";
import { OWNER_POSTS_PATH } from "./trash";
import { TrashedNotice } from "./trash-notice";

/** Posts per page of the owner's lists (the posts and the trash). */
export const OWNER_PAGE_SIZE = 20;

/** A post in the owner's list. */
export type OwnerPostRow = {
  id: number;
  slug: string;
  title: string;
  status: PublishState;
  publishedAt: Date | null;
  updatedAt: Date;
  /** How its newsletter went, when it was sent to subscribers (docs/decisions/037-newsletter.md). */
  newsletter?: { sent: number; pending: number; failed: number } | null;
};

/** A post's newsletter in a few words: "Newsletter: 9,998 sent, 2 pending, 0 failed". */
export const newsletterText = (n: { sent: number; pending: number; failed: number }) =>
  `Newsletter: ${n.sent.toLocaleString("en")} sent, ${n.pending.toLocaleString("en")} pending, ${n.failed.toLocaleString("en")} failed`;

const stateStyle: Record<PublishState, string> = {
  draft: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
  scheduled: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  published: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
};

/**
 * `/admin/posts`: every post whatever its state (the trash aside), with its state, date and an
 * Edit link; `trashed` is the post just deleted in the editor, offered back by a notice.
 */
/** Every post as Markdown, in a zip (app/routes/admin.posts-export.ts). */
export const POSTS_EXPORT_PATH = "/admin/posts/export.zip";

export function OwnerPostList({
  posts,
  page,
  pageCount,
  total,
  trashCount,
  trashed,
}: {
  posts: OwnerPostRow[];
  page: number;
  pageCount: number;
  total: number;
  trashCount: number;
  trashed: { id: number; title: string } | null;
}) {
  return (
    <div className="py-12">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-slate-900 dark:text-white">Posts</h1>
        <NewPostLink />
      </div>
      <PostListsNav current="posts" trashCount={trashCount} />
      <TrashedNotice trashed={trashed} />
      <p className="mt-4 text-slate-600 dark:text-slate-400">
        {total === 1 ? "1 post" : `${total} posts`}. Drafts and scheduled posts are seen by you
        alone.
      </p>
      {total > 0 ? (
        // A plain link: the download is a file, not a page of the app.
        <a
          href={POSTS_EXPORT_PATH}
          download
          className="mt-4 inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800"
        >
          Export posts
        </a>
      ) : null}
      {posts.length === 0 ? (
        <p className="mt-8 text-slate-600 dark:text-slate-400">No posts yet.</p>
      ) : (
        <ul
          className="mt-8 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
          data-testid="owner-post-list"
        >
          {posts.map((post) => (
            <li key={post.id} className="flex flex-wrap items-center gap-3 p-4">
              <span
                className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${stateStyle[post.status]}`}
              >
                {PUBLISH_TEXT[post.status]}
              </span>
              <Link
                to={postPath(post.slug)}
                className="min-w-0 flex-1 font-medium break-words text-slate-900 underline-offset-2 hover:underline dark:text-white"
              >
                {post.title}
              </Link>
              <span className="text-sm text-slate-600 dark:text-slate-400">
                {post.status === "scheduled" && post.publishedAt
                  ? `Goes public ${formatDateTime(post.publishedAt)}`
                  : post.status === "published" && post.publishedAt
                    ? formatLongDate(post.publishedAt)
                    : `Changed ${formatLongDate(post.updatedAt)}`}
              </span>
              {post.newsletter ? (
                <span
                  className="text-sm text-slate-600 dark:text-slate-400"
                  data-testid="post-newsletter"
                >
                  {newsletterText(post.newsletter)}
                </span>
              ) : null}
              <Link
                to={`/blog/${post.id}/edit`}
                aria-label={`Edit ${post.title}`}
                className="inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                <Pencil aria-hidden="true" className="size-4" />
                Edit
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} path={OWNER_POSTS_PATH} />
    </div>
  );
}

import { useEffect, useRef } from "react";
import { useNavigationType } from "react-router";

import { usePendingText } from "~/features/site";
import { scrollToTop } from "~/lib/scroll";
import { Pagination } from "~/ui/pagination";

import { PostCard, type PostCardData } from "./post-card";

/**
 * A paged list of posts (the blog's, a search's, a tag's): the cards, or the text for none,
 * the pending text while a client-side navigation loads another page of it, and pagination.
 * Changing the page in the browser (a PUSH) scrolls smoothly to the top; Back restores where the
 * reader was.
 */
export function PostList({
  posts,
  page,
  pageCount,
  search,
  path,
  emptyText,
}: {
  posts: (PostCardData & { id: number })[];
  page: number;
  pageCount: number;
  search?: string;
  path?: string;
  emptyText: string;
}) {
  const navigationType = useNavigationType();
  const pendingText = usePendingText("page");
  const loading = pendingText !== null;

  const shownPage = useRef(page);
  useEffect(() => {
    if (shownPage.current !== page && navigationType === "PUSH") scrollToTop();
    shownPage.current = page;
  }, [page, navigationType]);

  return (
    <>
      <div className="mt-8" aria-live="polite" aria-busy={loading}>
        {loading ? (
          <p className="text-slate-600 dark:text-slate-400">{pendingText}</p>
        ) : posts.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-400">{emptyText}</p>
        ) : (
          <ul className="space-y-4" data-testid="post-list">
            {posts.map((post) => (
              <li key={post.id}>
                <PostCard post={post} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {loading ? null : (
        <Pagination page={page} pageCount={pageCount} search={search} path={path} />
      )}
    </>
  );
}

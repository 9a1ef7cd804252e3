import { Link } from "react-router";

import { OWNER_POSTS_PATH, TRASH_PATH, TRASH_TEXT } from "./trash";

const tab = (current: boolean) =>
  `rounded-lg px-3 py-1.5 text-sm font-medium ${
    current
      ? "bg-slate-900 text-white dark:bg-white dark:text-slate-900"
      : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
  }`;

/** Between the owner's posts and the trash, which says how many posts it holds. */
export function PostListsNav({
  current,
  trashCount,
}: {
  current: "posts" | "trash";
  trashCount: number;
}) {
  return (
    <nav aria-label="Post lists" className="mt-4 flex flex-wrap gap-2">
      <Link
        to={OWNER_POSTS_PATH}
        aria-current={current === "posts" ? "page" : undefined}
        className={tab(current === "posts")}
      >
        Posts
      </Link>
      <Link
        to={TRASH_PATH}
        aria-current={current === "trash" ? "page" : undefined}
        className={tab(current === "trash")}
      >
        {`${TRASH_TEXT.heading} (${trashCount})`}
      </Link>
    </nav>
  );
}

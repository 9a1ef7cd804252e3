import { Link } from "react-router";

import { tagPath } from "./publishing";

/** A post's tags as links to their lists ("#postgres"). */
export function TagLinks({
  tags,
  className = "",
}: {
  tags: readonly string[];
  className?: string;
}) {
  return (
    <ul aria-label="Tags" className={`flex flex-wrap gap-2 ${className}`}>
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to={tagPath(tag)}
            className="inline-block rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-medium text-slate-800 hover:bg-sky-100 hover:text-sky-900 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700 dark:hover:text-white"
          >
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}

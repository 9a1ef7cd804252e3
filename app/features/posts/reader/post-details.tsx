import { formatDateTime } from "~/lib/format";

import { PostDate } from "../post-date";
import { PUBLISH_TEXT } from "../publishing";
import { readingTimeText } from "../rules";
import type { PostView, RenderedPost } from "./post-view";

/** A version of a post's text: the original ("es") or its English one ("en"). */
export type PostVersion = { key: string; rendered: RenderedPost };

/**
 * Both versions' contents and reading times are in the markup, one hidden, so the switch works
 * on the server's page too (app/features/site/site-script.ts swaps them, and the body with the
 * template).
 */
export function versionsOf(post: PostView): PostVersion[] {
  return [
    { key: "es", rendered: post.content },
    ...(post.contentEn ? [{ key: "en", rendered: post.contentEn }] : []),
  ];
}

/** Whether a version's parts start hidden: the English ones unless English is shown. */
export const isHiddenVersion = (key: string, showEnglish: boolean) =>
  (key === "en") !== showEnglish;

/** The line under the title: the date, the reading time, and the English switch. */
export function PostDetails({
  post,
  versions,
  showEnglish,
  onSwitch,
}: {
  post: PostView;
  versions: PostVersion[];
  showEnglish: boolean;
  onSwitch: () => void;
}) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3">
      <PostDate
        date={post.publishedAt}
        className="dt-published text-slate-600 dark:text-slate-400"
      />
      {versions.map(({ key, rendered }) => (
        <span
          key={key}
          data-version={key}
          hidden={isHiddenVersion(key, showEnglish)}
          className="text-slate-600 dark:text-slate-400"
        >
          {readingTimeText(rendered.readingMinutes)}
        </span>
      ))}
      {post.contentEn !== null ? <EnglishSwitch on={showEnglish} onSwitch={onSwitch} /> : null}
    </div>
  );
}

function EnglishSwitch({ on, onSwitch }: { on: boolean; onSwitch: () => void }) {
  return (
    <>
      <span className="rounded-full bg-sky-100 px-2.5 py-0.5 text-xs font-semibold text-sky-900 dark:bg-sky-900 dark:text-sky-100">
        English
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        onClick={onSwitch}
        data-version-switch=""
        className="group inline-flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-300"
      >
        {/* Drawn from aria-checked, so it follows the switch with or without React. */}
        <span
          aria-hidden="true"
          className="relative inline-block h-6 w-11 rounded-full bg-slate-300 transition-colors group-aria-checked:bg-sky-700 dark:bg-slate-700 dark:group-aria-checked:bg-sky-400"
        >
          <span className="absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow transition-transform group-aria-checked:translate-x-5" />
        </span>
        Read in English
      </button>
    </>
  );
}

/** For the owner's eyes: a draft, or a scheduled post and when it goes public. */
export function UnpublishedNote({ post }: { post: PostView }) {
  return (
    <p
      role="note"
      className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {post.status === "draft"
        ? `${PUBLISH_TEXT.draft}: only you can see this post.`
        : `${PUBLISH_TEXT.scheduled}: this post goes public on ${formatDateTime(post.publishedAt)}. Only you can see it until then.`}
    </p>
  );
}

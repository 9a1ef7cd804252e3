import { RotateCcw, Trash2 } from "lucide-react";
import { useRef, type RefObject } from "react";
import { Form, Link } from "react-router";

import { formatLongDate } from "~/lib/format";
import { buttonClass } from "~/ui/button";
import { Pagination } from "~/ui/pagination";

import { PostListsNav } from "./post-lists-nav";
import { PUBLISH_TEXT } from "./publishing";
import { TRASH_PATH, TRASH_TEXT, type TrashedPost, type TrashResult } from "./trash";
import { TrashResultNotice } from "./trash-notice";

const dialogClass =
  "m-auto max-w-sm rounded-xl border border-slate-300 bg-white p-6 text-slate-900 backdrop:bg-black/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const dangerClass = "rounded-lg bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800";

/**
 * `/admin/posts/trash`: the posts the owner deleted, newest first, each with Restore and Delete
 * forever. Every button is a form posting to the page's action, so all of it works without
 * JavaScript; `result` is what the last one did.
 */
export function TrashList({
  posts,
  page,
  pageCount,
  total,
  result,
}: {
  posts: TrashedPost[];
  page: number;
  pageCount: number;
  total: number;
  result: TrashResult | undefined;
}) {
  return (
    <div className="py-12">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">{TRASH_TEXT.heading}</h1>
      <PostListsNav current="trash" trashCount={total} />
      <p className="mt-4 text-slate-600 dark:text-slate-400">{TRASH_TEXT.kept}</p>
      {result && result.confirm === undefined ? <TrashResultNotice result={result} /> : null}
      {posts.length === 0 ? (
        <p className="mt-8 text-slate-600 dark:text-slate-400">{TRASH_TEXT.empty}</p>
      ) : (
        <ul
          className="mt-8 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
          data-testid="trash-list"
        >
          {posts.map((post) => (
            <TrashRow key={post.id} post={post} asked={result?.confirm === post.id} />
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} path={TRASH_PATH} />
    </div>
  );
}

/** A trashed post: what it was, when it goes for good, Restore and Delete forever. */
function TrashRow({ post, asked }: { post: TrashedPost; asked: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <li className="flex flex-wrap items-center gap-3 p-4">
      <span className="rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-700 dark:text-slate-100">
        {`${TRASH_TEXT.wasState} ${PUBLISH_TEXT[post.status]}`}
      </span>
      <span className="min-w-0 flex-1 font-medium break-words text-slate-900 dark:text-white">
        {post.title}
      </span>
      <span className="text-sm text-slate-600 dark:text-slate-400">
        {`${TRASH_TEXT.deletedOn} ${formatLongDate(post.trashedAt)}, ${TRASH_TEXT.purgeIn(post.purgeInDays)}`}
      </span>
      <Form method="post" className="flex flex-wrap gap-2">
        <input type="hidden" name="id" value={post.id} />
        <button
          type="submit"
          name="intent"
          value="restore"
          aria-label={`${TRASH_TEXT.restore} ${post.title}`}
          className={buttonClass({ variant: "secondary", size: "sm" })}
        >
          <RotateCcw aria-hidden="true" className="size-4" />
          {TRASH_TEXT.restore}
        </button>
        <button
          type="submit"
          name="intent"
          value="ask"
          aria-label={`${TRASH_TEXT.deleteForever} ${post.title}`}
          className={buttonClass({ variant: "danger", size: "sm" })}
          onClick={(event) => {
            // With JavaScript the confirmation is a dialog; without, the server shows it inline.
            event.preventDefault();
            dialog.current?.showModal();
          }}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          {TRASH_TEXT.deleteForever}
        </button>
      </Form>
      <dialog ref={dialog} aria-labelledby={`forever-${post.id}`} className={dialogClass}>
        <ConfirmForever post={post} headingId={`forever-${post.id}`} dialog={dialog} />
      </dialog>
      {asked ? (
        <div
          role="group"
          aria-labelledby={`forever-asked-${post.id}`}
          className="w-full rounded-lg bg-red-50 p-4 text-red-950 dark:bg-red-950 dark:text-red-50"
        >
          <ConfirmForever post={post} headingId={`forever-asked-${post.id}`} />
        </div>
      ) : null}
    </li>
  );
}

/**
 * "Delete this post forever?", with Keep it and Delete forever: in a dialog (Keep it closes it;
 * Escape too), or on the page a script-less Delete forever rendered (Keep it goes back).
 */
function ConfirmForever({
  post,
  headingId,
  dialog,
}: {
  post: TrashedPost;
  headingId: string;
  dialog?: RefObject<HTMLDialogElement | null>;
}) {
  const keepClass = buttonClass({ variant: "secondary" });
  return (
    <>
      <h2 id={headingId} className="text-lg font-semibold">
        {TRASH_TEXT.confirmHeading}
      </h2>
      <p className="mt-2">{TRASH_TEXT.confirmAsk(post.title)}</p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        {dialog ? (
          <button type="button" className={keepClass} onClick={() => dialog.current?.close()}>
            {TRASH_TEXT.keep}
          </button>
        ) : (
          <Link to={TRASH_PATH} className={keepClass}>
            {TRASH_TEXT.keep}
          </Link>
        )}
        <Form method="post" onSubmit={() => dialog?.current?.close()}>
          <input type="hidden" name="id" value={post.id} />
          <button type="submit" name="intent" value="delete" className={dangerClass}>
            {TRASH_TEXT.deleteForever}
          </button>
        </Form>
      </div>
    </>
  );
}

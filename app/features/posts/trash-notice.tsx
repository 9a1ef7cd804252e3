import { useEffect, useRef, type ReactNode } from "react";
import { Link, useFetcher } from "react-router";

import { buttonClass } from "~/ui/button";

import { TRASH_PATH, TRASH_TEXT, type TrashResult } from "./trash";

const linkClass = "font-medium underline underline-offset-2";

/**
 * What a trash action did, kept on the page (no timer: it may hold Undo, which a toast that
 * hides itself would take away from a slow reader). Focused when it appears, so a keyboard is
 * next to its actions and a screen reader reads it, the button pressed being gone with its row.
 */
export function TrashNotice({
  ok,
  message,
  children,
}: {
  ok: boolean;
  message: string;
  children?: ReactNode;
}) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => notice.current?.focus(), [message]);
  return (
    <div
      ref={notice}
      tabIndex={-1}
      role={ok ? "status" : "alert"}
      data-testid="trash-notice"
      className={`mt-6 flex flex-wrap items-center gap-3 rounded-lg border px-4 py-3 ${
        ok
          ? "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50"
          : "border-red-300 bg-red-50 text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-50"
      }`}
    >
      <p className="min-w-0 flex-1 break-words">{message}</p>
      {children}
    </div>
  );
}

/** A trash action's result, with a link to a restored post. */
export function TrashResultNotice({ result }: { result: TrashResult }) {
  return (
    <TrashNotice ok={result.ok} message={result.message}>
      {result.path ? (
        <Link to={result.path} className={linkClass}>
          {TRASH_TEXT.viewPost}
        </Link>
      ) : null}
    </TrashNotice>
  );
}

/**
 * On the owner's list after Delete in the editor: the post is in the trash, with Undo (its
 * Restore, in place with JavaScript; without, the form lands on the trash with the result).
 */
export function TrashedNotice({ trashed }: { trashed: { id: number; title: string } | null }) {
  const fetcher = useFetcher<TrashResult>();
  if (fetcher.data) return <TrashResultNotice result={fetcher.data} />;
  if (!trashed) return null;
  return (
    <TrashNotice ok message={TRASH_TEXT.trashed(trashed.title)}>
      <fetcher.Form method="post" action={TRASH_PATH}>
        <input type="hidden" name="id" value={trashed.id} />
        <button
          type="submit"
          name="intent"
          value="restore"
          disabled={fetcher.state !== "idle"}
          className={buttonClass({ size: "sm" })}
        >
          {TRASH_TEXT.undo}
        </button>
      </fetcher.Form>
      <Link to={TRASH_PATH} className={linkClass}>
        {TRASH_TEXT.openTrash}
      </Link>
    </TrashNotice>
  );
}

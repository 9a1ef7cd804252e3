import type { RefObject } from "react";

import { TRASH_TEXT } from "../trash";
import { secondaryClass } from "./styles";

/**
 * Asks before a post is deleted, which moves it to the trash; opened by the editor's "Delete
 * post" button through `dialog`.
 */
export function DeletePostDialog({
  dialog,
  title,
  onDelete,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  title: string;
  onDelete: () => void;
}) {
  return (
    <dialog
      ref={dialog}
      aria-labelledby="delete-heading"
      className="m-auto max-w-sm rounded-xl border border-slate-300 bg-white p-6 text-slate-900 backdrop:bg-black/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id="delete-heading" className="text-lg font-semibold">
        Delete this post?
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">{TRASH_TEXT.moveAsk(title)}</p>
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" className={secondaryClass} onClick={() => dialog.current?.close()}>
          {TRASH_TEXT.keep}
        </button>
        <button
          type="button"
          onClick={onDelete}
          className="rounded-lg bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800"
        >
          Delete
        </button>
      </div>
    </dialog>
  );
}

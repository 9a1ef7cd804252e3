import { useId, useRef, useState } from "react";

import type { RestoreAnswer, RevisionEntry } from "../revisions/history-api";
import {
  HISTORY_TEXT,
  REVISION_KIND_TEXT,
  wordCountsSpoken,
  wordCountsText,
} from "../revisions/rules";
import { textOfHtml } from "../rules";
import { fetchHistory, revisionTime } from "./history-client";
import { HistoryVersion } from "./history-version";
import type { PostDraft } from "./post-draft";
import { hintClass, secondaryClass } from "./styles";

/** What a restore hands the editor: the post's new head and the fields to load. */
export type RestoredVersion = Omit<RestoreAnswer, "ok">;

/** The editor's fields for a restored version (as usePostDraft holds them). */
export const draftOfRestored = ({ fields }: RestoredVersion): Partial<PostDraft> => ({
  title: fields.title,
  description: fields.description,
  html: fields.content,
  empty: textOfHtml(fields.content) === "",
  slug: fields.slug,
  tagText: fields.tags.join(", "),
  canonicalUrl: fields.canonicalUrl,
  syndicationText: fields.syndication.join("\n"),
});

type Listed =
  { state: "loading" } | { state: "failed" } | { state: "ready"; list: RevisionEntry[] };

/**
 * The post's `History` (docs/product.md#editor): a button opening a dialog that lists every
 * saved version (time, kind, words added and removed), opens one as its diff to the current
 * version, and restores it, which adds a version and deletes none. `headRevision` is the
 * revision the editor holds; `onRestored` loads the restored version into the editor.
 */
export function HistoryPanel({
  postId,
  headRevision,
  onRestored,
}: {
  postId: number;
  headRevision: number | null;
  onRestored: (restored: RestoredVersion) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const [listed, setListed] = useState<Listed>({ state: "loading" });
  const [chosen, setChosen] = useState<RevisionEntry | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function open() {
    setDone(null);
    setChosen(null);
    setListed({ state: "loading" });
    dialog.current?.showModal();
    try {
      setListed({ state: "ready", list: (await fetchHistory(postId)).revisions });
    } catch (error) {
      console.error("Error loading the history.", error);
      setListed({ state: "failed" });
    }
  }

  function restored({ ok: _ok, ...answer }: RestoreAnswer, entry: RevisionEntry) {
    onRestored(answer);
    dialog.current?.close();
    setDone(HISTORY_TEXT.restored(revisionTime(entry.savedAt)));
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        ref={opener}
        type="button"
        aria-haspopup="dialog"
        className={secondaryClass}
        onClick={() => void open()}
      >
        {HISTORY_TEXT.button}
      </button>
      <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
        {done}
      </p>
      <dialog
        ref={dialog}
        aria-labelledby={headingId}
        onClose={() => opener.current?.focus()}
        className="m-auto max-h-[90vh] w-full max-w-5xl overflow-hidden rounded-xl border border-slate-300 bg-white p-0 text-slate-900 backdrop:bg-black/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="flex items-center justify-between gap-3 border-b border-slate-300 px-6 py-4 dark:border-slate-700">
          <h2 id={headingId} className="text-xl font-semibold">
            {HISTORY_TEXT.heading}
          </h2>
          <button type="button" className={secondaryClass} onClick={() => dialog.current?.close()}>
            {HISTORY_TEXT.close}
          </button>
        </div>
        <div className="grid max-h-[calc(90vh-5rem)] gap-6 overflow-y-auto p-6 md:grid-cols-[16rem_1fr]">
          <VersionList listed={listed} chosen={chosen} onChoose={setChosen} />
          {chosen ? (
            <HistoryVersion
              key={chosen.id}
              postId={postId}
              entry={chosen}
              headRevision={headRevision}
              onRestored={(answer) => restored(answer, chosen)}
            />
          ) : listed.state === "ready" && listed.list.length > 0 ? (
            <p className={hintClass}>{HISTORY_TEXT.choose}</p>
          ) : null}
        </div>
      </dialog>
    </div>
  );
}

/** The saved versions, newest first, each a button that opens it. */
function VersionList({
  listed,
  chosen,
  onChoose,
}: {
  listed: Listed;
  chosen: RevisionEntry | null;
  onChoose: (entry: RevisionEntry) => void;
}) {
  if (listed.state === "loading") {
    return (
      <p role="status" className={hintClass}>
        {HISTORY_TEXT.loading}
      </p>
    );
  }
  if (listed.state === "failed") {
    return (
      <p role="alert" className="text-red-800 dark:text-red-300">
        {HISTORY_TEXT.loadFailed}
      </p>
    );
  }
  if (listed.list.length === 0) return <p className={hintClass}>{HISTORY_TEXT.empty}</p>;
  const head = listed.list[0]!.id;
  return (
    <ol aria-label={HISTORY_TEXT.versions} className="space-y-2">
      {listed.list.map((entry) => (
        <li key={entry.id}>
          <button
            type="button"
            aria-current={entry.id === chosen?.id ? "true" : undefined}
            onClick={() => onChoose(entry)}
            className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-left hover:bg-slate-100 aria-[current=true]:border-sky-700 aria-[current=true]:bg-sky-50 aria-[current=true]:ring-2 aria-[current=true]:ring-sky-700 dark:border-slate-700 dark:hover:bg-slate-800 dark:aria-[current=true]:border-sky-400 dark:aria-[current=true]:bg-sky-950 dark:aria-[current=true]:ring-sky-400"
          >
            <time dateTime={entry.savedAt} className="block font-medium">
              {revisionTime(entry.savedAt)}
            </time>{" "}
            <span className="block text-sm text-slate-700 dark:text-slate-300">
              {REVISION_KIND_TEXT[entry.kind]}
              {entry.id === head ? `, ${HISTORY_TEXT.current}` : null}
              {entry.applied ? null : `, ${HISTORY_TEXT.pending}`}
            </span>{" "}
            <span className="block text-sm text-slate-700 dark:text-slate-300">
              <span aria-hidden="true">{wordCountsText(entry.wordsAdded, entry.wordsRemoved)}</span>
              <span className="sr-only">
                {wordCountsSpoken(entry.wordsAdded, entry.wordsRemoved)}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}

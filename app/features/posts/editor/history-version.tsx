import { useEffect, useId, useRef, useState } from "react";

import type { RestoreAnswer, RevisionEntry, RevisionView } from "../revisions/history-api";
import { HISTORY_TEXT, REVISION_KIND_TEXT } from "../revisions/rules";
import { fetchRevision, requestRestore, revisionTime } from "./history-client";
import { diffMarksClass, hintClass, primaryClass } from "./styles";

type Loaded = { state: "loading" } | { state: "failed" } | { state: "ready"; view: RevisionView };
type Restoring = "idle" | "restoring" | "failed" | "conflict";

const alertClass =
  "mt-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100";

/**
 * One revision, opened from the History panel's list: its diff to the post's current version
 * as the post renders, and `Restore this version`. Mounted afresh for each revision opened; it
 * takes focus once loaded, so a screen reader hears what opened.
 */
export function HistoryVersion({
  postId,
  entry,
  headRevision,
  onRestored,
}: {
  postId: number;
  entry: RevisionEntry;
  /** The revision the editor holds, which the restore names as its base. */
  headRevision: number | null;
  onRestored: (answer: RestoreAnswer) => void;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [restoring, setRestoring] = useState<Restoring>("idle");
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();

  useEffect(() => {
    let current = true;
    fetchRevision(postId, entry.id).then(
      (view) => current && setLoaded({ state: "ready", view }),
      () => current && setLoaded({ state: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [postId, entry.id]);
  useEffect(() => {
    if (loaded.state === "ready") heading.current?.focus();
  }, [loaded.state]);

  async function restore() {
    setRestoring("restoring");
    try {
      const answer = await requestRestore(postId, entry.id, headRevision);
      if (!answer.ok) return setRestoring("conflict");
      setRestoring("idle");
      onRestored(answer);
    } catch (error) {
      console.error("Error restoring a revision.", error);
      setRestoring("failed");
    }
  }

  return (
    <section aria-labelledby={headingId} className="min-w-0">
      <h3
        ref={heading}
        id={headingId}
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900 dark:text-white"
      >
        {REVISION_KIND_TEXT[entry.kind]}, {revisionTime(entry.savedAt)}
      </h3>
      {loaded.state === "loading" ? (
        <p role="status" className={hintClass}>
          {HISTORY_TEXT.loadingVersion}
        </p>
      ) : loaded.state === "failed" ? (
        <p role="alert" className={alertClass}>
          {HISTORY_TEXT.loadFailed}
        </p>
      ) : (
        <>
          <VersionDiff view={loaded.view} />
          {loaded.view.head === entry.id ? (
            <p className="mt-4 font-medium text-slate-800 dark:text-slate-200">
              {HISTORY_TEXT.isCurrent}
            </p>
          ) : (
            <button
              type="button"
              className={`${primaryClass} mt-4`}
              disabled={restoring === "restoring"}
              onClick={() => void restore()}
            >
              {restoring === "restoring" ? HISTORY_TEXT.restoring : HISTORY_TEXT.restore}
            </button>
          )}
          {restoring === "conflict" || restoring === "failed" ? (
            <p role="alert" className={alertClass}>
              {restoring === "conflict" ? HISTORY_TEXT.conflict : HISTORY_TEXT.restoreFailed}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The revision's title, description and content, marked where the current version differs. */
function VersionDiff({ view }: { view: RevisionView }) {
  // Sanitized by the server for exactly this: the post's formats and the diff's marks
  // (app/features/posts/revisions/render-diff.server.ts).
  const html = (__html: string) => ({ __html });
  return (
    <div className={diffMarksClass}>
      <p className={hintClass}>{HISTORY_TEXT.caption}</p>
      {view.diffWordByWord ? null : <p className={hintClass}>{HISTORY_TEXT.whole}</p>}
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-800 dark:text-slate-200">
        <dt className="font-medium">{HISTORY_TEXT.title}</dt>
        <dd dangerouslySetInnerHTML={html(view.titleDiffHtml)} />
        {view.descriptionDiffHtml === "" ? null : (
          <>
            <dt className="font-medium">{HISTORY_TEXT.description}</dt>
            <dd dangerouslySetInnerHTML={html(view.descriptionDiffHtml)} />
          </>
        )}
      </dl>
      <div
        data-testid="revision-diff"
        className="prose prose-slate mt-4 max-w-none rounded-lg border border-dashed border-slate-300 p-4 dark:border-slate-700 dark:prose-invert"
        dangerouslySetInnerHTML={html(view.diffHtml)}
      />
    </div>
  );
}

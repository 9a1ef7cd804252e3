import { useEffect, useRef, useState } from "react";

import { CONFLICT_TEXT, type EditConflict } from "../revisions/conflict";
import { clockTime } from "./autosave-rules";
import type { PostDraft } from "./post-draft";
import { primaryClass, secondaryClass } from "./styles";
import { TextDiff } from "./text-diff";

type Theirs = { title: string; content: string };

/**
 * A save was refused because the post changed elsewhere: says when and where, shows what
 * differs on request, and offers Keep mine (saved on top, as a new revision) or Take theirs.
 */
export function ConflictPanel({
  postId,
  conflict,
  mine,
  onKeepMine,
  onTakeTheirs,
}: {
  postId: number;
  conflict: EditConflict;
  mine: PostDraft;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [theirs, setTheirs] = useState<Theirs | "loading" | "failed" | null>(null);
  useEffect(() => heading.current?.focus(), [conflict.revision]);

  async function showDifferences() {
    if (theirs && theirs !== "failed") return setTheirs(null);
    setTheirs("loading");
    try {
      const response = await fetch(`/api/posts/${postId}/revisions/${conflict.revision}`);
      if (!response.ok) throw new Error(String(response.status));
      const body = (await response.json()) as { revision: Theirs };
      setTheirs({ title: body.revision.title, content: body.revision.content });
    } catch {
      setTheirs("failed");
    }
  }

  return (
    <section
      role="alert"
      aria-labelledby="conflict-heading"
      className="mt-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <h2 id="conflict-heading" ref={heading} tabIndex={-1} className="font-semibold">
        {CONFLICT_TEXT.heading}
      </h2>
      <p className="mt-1">{CONFLICT_TEXT.changed(conflict, clockTime(conflict.savedAt))}</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <button
          type="button"
          className={secondaryClass}
          aria-expanded={theirs !== null && theirs !== "failed"}
          onClick={() => void showDifferences()}
        >
          {theirs && theirs !== "failed" ? CONFLICT_TEXT.hide : CONFLICT_TEXT.show}
        </button>
        <button type="button" className={primaryClass} onClick={onKeepMine}>
          {CONFLICT_TEXT.keepMine}
        </button>
        <button type="button" className={secondaryClass} onClick={onTakeTheirs}>
          {CONFLICT_TEXT.takeTheirs}
        </button>
      </div>
      {theirs === "loading" ? <p className="mt-3">Loading…</p> : null}
      {theirs === "failed" ? <p className="mt-3">The other version could not be loaded.</p> : null}
      {theirs && typeof theirs === "object" ? (
        <div className="mt-3 rounded-lg bg-white p-3 dark:bg-slate-900">
          <p className="mb-2 text-sm">Theirs → yours:</p>
          <TextDiff
            before={theirs.content}
            after={mine.html}
            beforeTitle={theirs.title}
            afterTitle={mine.title}
          />
        </div>
      ) : null}
    </section>
  );
}

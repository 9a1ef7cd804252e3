import { diffArrays } from "diff";
import { useMemo } from "react";

import { wordsOf } from "../revisions/word-changes";

/** Unchanged runs longer than this are shortened to their ends. */
const CONTEXT_WORDS = 8;
/** Beyond this many edits the texts are shown as replaced whole. */
const MAX_EDITS = 2000;

type Piece = { kind: "same" | "added" | "removed"; text: string };

/**
 * What differs between two versions of a post, word by word, as it reads: added words underlined
 * in <ins>, removed ones struck through in <del>, each also named for screen readers, so nothing
 * relies on colour. Built as React text, never as HTML.
 */
export function TextDiff({
  before,
  after,
  beforeTitle,
  afterTitle,
}: {
  before: string;
  after: string;
  beforeTitle?: string;
  afterTitle?: string;
}) {
  const body = useMemo(() => piecesOf(wordsOf(before), wordsOf(after)), [before, after]);
  const title = useMemo(
    () =>
      beforeTitle !== undefined && afterTitle !== undefined && beforeTitle !== afterTitle
        ? piecesOf(beforeTitle.split(/\s+/), afterTitle.split(/\s+/))
        : null,
    [beforeTitle, afterTitle],
  );
  const changed = body.some((piece) => piece.kind !== "same") || title !== null;
  return (
    <div data-testid="text-diff" className="space-y-2 text-slate-800 dark:text-slate-200">
      {title ? (
        <p>
          <strong>Title: </strong>
          <Pieces pieces={title} />
        </p>
      ) : null}
      {changed ? (
        <p className="leading-relaxed">
          <Pieces pieces={body} />
        </p>
      ) : (
        <p>The texts are the same.</p>
      )}
    </div>
  );
}

function Pieces({ pieces }: { pieces: Piece[] }) {
  return pieces.map((piece, i) =>
    piece.kind === "added" ? (
      <ins key={i} className="bg-green-100 underline decoration-2 dark:bg-green-950">
        <span className="sr-only">added: </span>
        {piece.text}{" "}
      </ins>
    ) : piece.kind === "removed" ? (
      <del key={i} className="bg-red-100 line-through decoration-2 dark:bg-red-950">
        <span className="sr-only">removed: </span>
        {piece.text}{" "}
      </del>
    ) : (
      <span key={i}>{piece.text} </span>
    ),
  );
}

function piecesOf(before: string[], after: string[]): Piece[] {
  const changes = diffArrays(before, after, { maxEditLength: MAX_EDITS }) ?? [
    { value: before, removed: true, added: false, count: before.length },
    { value: after, removed: false, added: true, count: after.length },
  ];
  return changes.map((change, i) => {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    return {
      kind,
      text: kind === "same" ? shorten(change.value, i, changes.length) : change.value.join(" "),
    };
  });
}

/** An unchanged run, with only its ends next to the changes kept. */
function shorten(words: string[], index: number, count: number): string {
  const keepStart = index === 0 ? 0 : CONTEXT_WORDS;
  const keepEnd = index === count - 1 ? 0 : CONTEXT_WORDS;
  if (words.length <= keepStart + keepEnd + 1) return words.join(" ");
  const start = words.slice(0, keepStart).join(" ");
  const end = words.slice(words.length - keepEnd).join(" ");
  return [start, "…", end].filter(Boolean).join(" ");
}

/**
 * A revision's content is stored as edits of a base text: runs to copy (a positive number of
 * characters), runs to skip (negative) and text to insert (strings). Most autosaves change a few
 * words of a long post, so a delta is a few hundred bytes where the post is tens of kilobytes.
 */
import { diffWordsWithSpace } from "diff";

export type Delta = (number | string)[];

/** Edits beyond this many words are not worth a delta: the text is stored whole instead. */
const MAX_EDIT_WORDS = 1000;
/**
 * Nor is a diff that takes longer than this: it runs on the event loop, so it is kept short. Only
 * the part between the texts' common start and end is diffed, so an edit in one place of a
 * 20,000-word post costs well under a millisecond; edits spread all over it cost more.
 */
export const DIFF_TIMEOUT_MS = 25;

/** Where two texts stop being the same from the start and from the end, at a word's edge. */
export function commonEnds(a: string, b: string): { start: number; end: number } {
  const most = Math.min(a.length, b.length);
  let start = 0;
  while (start < most && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  while (start > 0 && !EDGE.test(a[start - 1]!)) start--;
  let end = 0;
  while (
    end < most - start &&
    a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)
  ) {
    end++;
  }
  while (end > 0 && !EDGE.test(a[a.length - end]!)) end--;
  return { start, end };
}
const EDGE = /[\s<>]/;

/**
 * The delta that turns `base` into `text`, or null when the two differ too much for a delta to
 * pay (more than MAX_EDIT_WORDS edits, DIFF_TIMEOUT_MS of work, or a delta longer than a
 * quarter of the text).
 */
export function makeDelta(base: string, text: string): Delta | null {
  if (base === text) return base === "" ? [] : [base.length];
  const { start, end } = commonEnds(base, text);
  const changes = diffWordsWithSpace(
    base.slice(start, base.length - end),
    text.slice(start, text.length - end),
    { maxEditLength: MAX_EDIT_WORDS, timeout: DIFF_TIMEOUT_MS },
  );
  if (!changes) return null;
  const delta: Delta = start > 0 ? [start] : [];
  for (const change of changes) {
    const length = change.value.length;
    if (change.added) delta.push(change.value);
    else delta.push(change.removed ? -length : length);
  }
  if (end > 0) delta.push(end);
  return JSON.stringify(delta).length * 4 > text.length + 64 ? null : delta;
}

/** The text a delta makes of its base; throws when the delta does not fit the base. */
export function applyDelta(base: string, delta: Delta): string {
  let at = 0;
  let out = "";
  for (const step of delta) {
    if (typeof step === "string") {
      out += step;
    } else if (step >= 0) {
      out += base.slice(at, at + step);
      at += step;
    } else {
      at -= step;
    }
    if (at > base.length) throw new Error("The delta does not fit its base text.");
  }
  if (at !== base.length) throw new Error("The delta does not fit its base text.");
  return out;
}

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
 * Nor is a diff that takes longer than this: it runs on the event loop, so it is kept short
 * (a few words changed in a 20,000-word post take about a millisecond).
 */
export const DIFF_TIMEOUT_MS = 25;

/**
 * The delta that turns `base` into `text`, or null when the two differ too much for a delta to
 * pay (more than MAX_EDIT_WORDS edits, DIFF_TIMEOUT_MS of work, or a delta longer than a
 * quarter of the text).
 */
export function makeDelta(base: string, text: string): Delta | null {
  if (base === text) return base === "" ? [] : [base.length];
  const changes = diffWordsWithSpace(base, text, {
    maxEditLength: MAX_EDIT_WORDS,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (!changes) return null;
  const delta: Delta = [];
  for (const change of changes) {
    const length = change.value.length;
    if (change.added) delta.push(change.value);
    else delta.push(change.removed ? -length : length);
  }
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

/**
 * The History panel's diff of two versions of a post, as the post renders: word by word, the
 * newer version's markup with what was added and removed marked (./diff-markup.ts). Both
 * versions and the diff pass the post sanitizer, so nothing either held can run.
 */
import { diffArrays } from "diff";

import { loadDiffSanitizers } from "../sanitize.server";
import { escapeText, markChanges, markWhole, tokensOf, type TokenChange } from "./diff-markup";

export type RenderedDiff = {
  html: string;
  /** False when the versions differ too much to compare word by word (shown replaced whole). */
  wordByWord: boolean;
};

/** Past this many edited tokens (words and spaces), or this long, a diff gives up. */
const MAX_EDITS = 4000;
const MAX_DIFF_MS = 2000;

/**
 * The tokens' diff, in slices off the event loop (jsdiff's callback mode), so a long post never
 * stalls a request; undefined past MAX_EDITS or MAX_DIFF_MS.
 */
function diffTokens(old: string[], now: string[]): Promise<TokenChange[] | undefined> {
  return new Promise((resolve) => {
    diffArrays(old, now, { maxEditLength: MAX_EDITS, timeout: MAX_DIFF_MS, callback: resolve });
  });
}

/** The diff from post HTML `before` to `after`. */
export async function renderDiff(before: string, after: string): Promise<RenderedDiff> {
  const { input, output } = await loadDiffSanitizers();
  const old = tokensOf(input(before));
  const now = tokensOf(input(after));
  const changes = await diffTokens(old, now);
  return changes
    ? { html: output(markChanges(old, now, changes)), wordByWord: true }
    : { html: output(markWhole(old, now)), wordByWord: false };
}

/** The diff of two plain texts (a title, a description), as HTML. */
export const renderTextDiff = (before: string, after: string) =>
  renderDiff(escapeText(before), escapeText(after));

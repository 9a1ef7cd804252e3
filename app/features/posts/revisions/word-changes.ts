/** How many words a revision added and removed: the History panel's figures. */
import { diffArrays } from "diff";

import { textOfHtml } from "../rules";
import { DIFF_TIMEOUT_MS } from "./delta";

export type WordChanges = { added: number; removed: number };

/** Past this many edits the counts come from the words' tallies instead of a diff. */
const MAX_EDITS = 2000;

export const wordsOf = (html: string) =>
  textOfHtml(html.replace(/<\/(p|h\d|li|pre|blockquote|td|th)>|<br\s*\/?>/gi, " $&"))
    .split(/\s+/)
    .filter(Boolean);

/** Words added and removed from `before` to `after` (HTML), counted on the text as it reads. */
export function wordChanges(before: string, after: string): WordChanges {
  const all = { a: wordsOf(before), b: wordsOf(after) };
  // Only the words between the common start and end are diffed.
  let start = 0;
  const most = Math.min(all.a.length, all.b.length);
  while (start < most && all.a[start] === all.b[start]) start++;
  let end = 0;
  while (end < most - start && all.a[all.a.length - 1 - end] === all.b[all.b.length - 1 - end])
    end++;
  const a = all.a.slice(start, all.a.length - end);
  const b = all.b.slice(start, all.b.length - end);
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDITS, timeout: DIFF_TIMEOUT_MS });
  if (!changes) return tallyChanges(a, b);
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    if (change.added) added += change.count;
    else if (change.removed) removed += change.count;
  }
  return { added, removed };
}

/** A rewrite's counts: words present more often after than before, and the other way round. */
function tallyChanges(before: string[], after: string[]): WordChanges {
  const tally = new Map<string, number>();
  for (const word of before) tally.set(word, (tally.get(word) ?? 0) + 1);
  for (const word of after) tally.set(word, (tally.get(word) ?? 0) - 1);
  let added = 0;
  let removed = 0;
  for (const n of tally.values()) {
    if (n > 0) removed += n;
    else added -= n;
  }
  return { added, removed };
}

/** The revisions' rules, said once: the History panel and the server read them from here. */
import type { RevisionKind } from "../../../../database/schema";
import { MINUTE_MS } from "~/lib/format";

export const REVISION_RULES = {
  /** Autosaves within this long of the first coalesce into one revision. */
  coalesceMs: 10 * MINUTE_MS,
} as const;

/** The header the editor names its window with (a random id per opened editor). */
export const EDITOR_WINDOW_HEADER = "x-editor-window";

/** How the History panel names each kind of revision. */
export const REVISION_KIND_TEXT: Record<RevisionKind, string> = {
  manual: "Manual save",
  auto: "Autosave",
  restored: "Restored",
  imported: "Imported",
};

/**
 * What a diff's marks say to a screen reader, before the words they mark (the marks also show
 * as underlining and striking through, never by colour alone).
 */
export const DIFF_MARK_TEXT = { added: "added:", removed: "removed:" } as const;

/** "+12 −3 words", as it shows. */
export const wordCountsText = (added: number, removed: number) =>
  `+${added} \u2212${removed} words`;

/** "12 words added, 3 removed", as a screen reader says it. */
export const wordCountsSpoken = (added: number, removed: number) =>
  `${added} ${added === 1 ? "word" : "words"} added, ${removed} removed`;

/** The History panel's texts. */
export const HISTORY_TEXT = {
  button: "History",
  heading: "History",
  close: "Close",
  loading: "Loading history...",
  loadFailed: "The history could not load. Please try again.",
  empty: "No saved versions yet.",
  versions: "Saved versions, newest first",
  /** After a version's kind: the post's newest, and one its row does not hold yet. */
  current: "current",
  pending: "unpublished changes",
  choose: "Choose a version to compare it with the current one.",
  loadingVersion: "Loading this version...",
  caption:
    "Changes from this version to the current one: text added since is underlined, text removed since is struck through.",
  whole:
    "Too much changed to compare word by word: all of this version is shown removed, and all of the current one added.",
  isCurrent: "This is the current version.",
  title: "Title",
  description: "Description",
  restore: "Restore this version",
  restoring: "Restoring...",
  restoreFailed: "This version could not be restored. Please try again.",
  conflict:
    "The post changed since this editor opened it (in another window or on another device). Reload the page to see its newest version, then restore again.",
  restored: (when: string) => `Restored the version of ${when}.`,
} as const;

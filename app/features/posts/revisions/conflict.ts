/** An edit conflict as the editor is told of it, and how it says so. */
import type { RevisionKind } from "../../../../database/schema";

/** Where the other save was made, as seen from the editor that got the conflict. */
export type ChangedWhere = "this-window" | "another-window" | "another-device";

/** The 409 answer's `conflict`: the post's head, which the refused save would have overwritten. */
export type EditConflict = {
  revision: number;
  savedAt: string;
  kind: RevisionKind;
  where: ChangedWhere;
  /** "Firefox on Linux", when known. */
  agent: string | null;
};

const PLACES: Record<ChangedWhere, string> = {
  "this-window": "in this window",
  "another-window": "in another window of this browser",
  "another-device": "on another device",
};

export const CONFLICT_TEXT = {
  heading: "This post changed since you began editing",
  /** "It was saved at 10:42 in another window of this browser (Chrome on Linux)." */
  changed: (conflict: EditConflict, time: string) =>
    `It was saved at ${time} ${PLACES[conflict.where]}${conflict.agent ? ` (${conflict.agent})` : ""}. Nothing was overwritten.`,
  show: "Show differences",
  hide: "Hide differences",
  keepMine: "Keep mine",
  takeTheirs: "Take theirs",
  refused: "Your save was refused: the post changed elsewhere.",
} as const;

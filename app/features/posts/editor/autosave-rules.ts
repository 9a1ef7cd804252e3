/** When the editor saves by itself, and what it says about it: said once, here. */
import { SECOND_MS } from "~/lib/format";

export const AUTOSAVE = {
  /** Saved this long after typing stops… */
  idleMs: 3 * SECOND_MS,
  /** …and at least this often while it goes on. */
  maxWaitMs: 30 * SECOND_MS,
  /** The browser's own copy is written this long after the last change. */
  localCopyMs: 400,
  /** A failed autosave is tried again after this, doubling up to retryMaxMs. */
  retryFirstMs: 2 * SECOND_MS,
  retryMaxMs: 30 * SECOND_MS,
} as const;

/** "10:42", as the owner's clock reads. */
export const clockTime = (at: Date | string) =>
  new Date(at).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });

export const AUTOSAVE_TEXT = {
  saving: "Saving…",
  saved: (at: Date | string) => `Saved at ${clockTime(at)}`,
  offline: "Offline: kept in this browser",
  retrying: "Could not save: retrying",
  refused: (reason: string) => `Could not save: ${reason}`,
  unpublished: "Unpublished changes",
  unpublishedHint: "Visitors see the published version until you press Update Post.",
  discard: "Discard changes",
  restoreOffer: (at: Date | string) => `Restore unsaved changes from ${clockTime(at)}?`,
  restore: "Restore",
  dismiss: "Discard them",
  whatDiffers: "What differs",
} as const;

import { AUTOSAVE_TEXT } from "./autosave-rules";
import type { SaveState } from "./post-saver";
import { secondaryClass } from "./styles";

const textOf = (state: SaveState): string => {
  switch (state.kind) {
    case "idle":
    case "conflict":
      return "";
    case "saving":
      return AUTOSAVE_TEXT.saving;
    case "saved":
      return AUTOSAVE_TEXT.saved(state.at);
    case "offline":
      return AUTOSAVE_TEXT.offline;
    case "retrying":
      return AUTOSAVE_TEXT.retrying;
    case "refused":
      return AUTOSAVE_TEXT.refused(state.reason);
  }
};

/**
 * Where the editor's text is: saving, saved at a time, kept in this browser while offline, or
 * failing and retrying. A polite live region, so a screen reader hears it between words.
 */
export function SaveStatus({ state }: { state: SaveState }) {
  const text = textOf(state);
  const trouble = state.kind === "offline" || state.kind === "retrying" || state.kind === "refused";
  return (
    <p
      role="status"
      aria-live="polite"
      data-testid="save-status"
      className={`min-h-6 text-sm ${trouble ? "font-medium text-amber-800 dark:text-amber-200" : "text-slate-600 dark:text-slate-400"}`}
    >
      {text}
    </p>
  );
}

/** A published post's autosaved changes visitors do not see yet, and the way to drop them. */
export function UnpublishedNotice({ onDiscard, busy }: { onDiscard: () => void; busy: boolean }) {
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <p>
        <strong>{AUTOSAVE_TEXT.unpublished}.</strong> {AUTOSAVE_TEXT.unpublishedHint}
      </p>
      <button type="button" className={secondaryClass} onClick={onDiscard} disabled={busy}>
        {AUTOSAVE_TEXT.discard}
      </button>
    </div>
  );
}

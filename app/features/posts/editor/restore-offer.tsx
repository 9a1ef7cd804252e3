import { useEffect, useRef } from "react";

import { AUTOSAVE_TEXT } from "./autosave-rules";
import type { LocalCopy } from "./local-copy";
import type { PostDraft } from "./post-draft";
import { primaryClass, secondaryClass } from "./styles";
import { TextDiff } from "./text-diff";

/**
 * The browser holds changes the server never got (a crash, a closed tab, a lost connection):
 * offers them back, with what differs from the version the server has.
 */
export function RestoreOffer({
  copy,
  opened,
  onRestore,
  onDismiss,
}: {
  copy: LocalCopy;
  opened: PostDraft;
  onRestore: () => void;
  onDismiss: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby="restore-heading"
      className="mt-4 rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sky-950 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100"
    >
      <h2 id="restore-heading" ref={heading} tabIndex={-1} className="font-semibold">
        {AUTOSAVE_TEXT.restoreOffer(new Date(copy.savedAt))}
      </h2>
      <details className="mt-2">
        <summary className="cursor-pointer">{AUTOSAVE_TEXT.whatDiffers}</summary>
        <div className="mt-2 rounded-lg bg-white p-3 dark:bg-slate-900">
          <TextDiff
            before={opened.html}
            after={copy.draft.html}
            beforeTitle={opened.title}
            afterTitle={copy.draft.title}
          />
        </div>
      </details>
      <div className="mt-3 flex flex-wrap gap-3">
        <button type="button" className={primaryClass} onClick={onRestore}>
          {AUTOSAVE_TEXT.restore}
        </button>
        <button type="button" className={secondaryClass} onClick={onDismiss}>
          {AUTOSAVE_TEXT.dismiss}
        </button>
      </div>
    </section>
  );
}

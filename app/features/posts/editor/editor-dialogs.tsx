import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";

import { checkLink } from "./links";
import { buttonClass } from "~/ui/button";

export const ALT_TEXT = {
  required:
    "Describe the image: alt text is what screen readers say and what shows if it cannot load.",
  hint: "What the image shows, in a sentence (for a screenshot of code or a diagram, what it says).",
} as const;

const field =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 aria-invalid:border-red-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:aria-invalid:border-red-400";
const primary = buttonClass();
const secondary =
  "rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800";

/**
 * A modal dialog with one field, open for as long as it is rendered (its owner renders it only
 * while wanted, so each opening starts from its initial values); Escape or Cancel closes it.
 */
function FieldDialog({
  title,
  onClose,
  onSubmit,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-xl border border-slate-300 bg-white p-6 text-slate-900 backdrop:bg-black/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <form
        method="dialog"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(event);
        }}
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {children}
      </form>
    </dialog>
  );
}

/** Add, change or remove the link on the selection (the Link button, Ctrl+K). */
export function LinkDialog({
  initialHref,
  onApply,
  onRemove,
  onClose,
}: {
  initialHref: string | null;
  onApply: (href: string) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const inputId = useId();
  const errorId = useId();
  const [value, setValue] = useState(initialHref ?? "");
  const [error, setError] = useState<string | null>(null);
  return (
    <FieldDialog
      title={initialHref ? "Edit link" : "Add link"}
      onClose={onClose}
      onSubmit={() => {
        const checked = checkLink(value);
        if (!checked.ok) {
          setError(checked.error);
          return;
        }
        onApply(checked.href);
      }}
    >
      <label htmlFor={inputId} className="mt-4 block text-sm font-medium">
        URL
      </label>
      <input
        id={inputId}
        type="text"
        inputMode="url"
        autoComplete="off"
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        placeholder="https://example.com"
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        className={field}
      />
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        {initialHref ? (
          <button type="button" className={secondary} onClick={onRemove}>
            Remove link
          </button>
        ) : null}
        <button type="button" className={secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className={primary}>
          Apply
        </button>
      </div>
    </FieldDialog>
  );
}

/** Asks for an image's alt text (after an upload, or from the toolbar's Alt text button). */
export function AltTextDialog({
  initialAlt,
  onSave,
  onClose,
}: {
  initialAlt: string;
  onSave: (alt: string) => void;
  onClose: () => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [value, setValue] = useState(initialAlt);
  const [error, setError] = useState(false);
  return (
    <FieldDialog
      title="Describe this image"
      onClose={onClose}
      onSubmit={() => {
        if (value.trim() === "") {
          setError(true);
          return;
        }
        onSave(value.trim());
      }}
    >
      <label htmlFor={inputId} className="mt-4 block text-sm font-medium">
        Alt text
      </label>
      <p id={hintId} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {ALT_TEXT.hint}
      </p>
      <input
        id={inputId}
        type="text"
        value={value}
        maxLength={500}
        onChange={(event) => {
          setValue(event.target.value);
          setError(false);
        }}
        aria-invalid={error}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        className={field}
      />
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {ALT_TEXT.required}
        </p>
      ) : null}
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" className={secondary} onClick={onClose}>
          Later
        </button>
        <button type="submit" className={primary}>
          Save alt text
        </button>
      </div>
    </FieldDialog>
  );
}

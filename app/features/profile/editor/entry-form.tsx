import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState, type RefObject } from "react";
import { useFetcher } from "react-router";

import { buttonClass } from "~/ui/button";
import { CheckboxField, FormStatus, TextField } from "~/ui/fields";

import type { Education, Experience } from "../profile";
import { useFormResult, type FormResult } from "./form-result";

export type EntryKind = "experience" | "education";
export type Entry = Experience | Education;

export const ENTRY = {
  experience: {
    heading: "Experience",
    add: "Add experience",
    fields: [
      ["title", "Title"],
      ["company", "Company"],
    ],
    current: "Current job",
    empty: "No experience yet: add the first below.",
  },
  education: {
    heading: "Education",
    add: "Add education",
    fields: [
      ["degree", "Degree"],
      ["institution", "Institution"],
    ],
    current: "Currently studying",
    empty: "No education yet: add the first below.",
  },
} as const;

/** Both kinds as one shape: the two named fields, the period, and whether it is still going. */
type EntryValues = { first: string; second: string; from: string; to: string; current: boolean };

function entryValues(kind: EntryKind, entry?: Entry): EntryValues {
  if (!entry) return { first: "", second: "", from: "", to: "", current: false };
  if (kind === "experience" && "title" in entry) {
    return {
      first: entry.title,
      second: entry.company,
      from: entry.from,
      to: entry.to ?? "",
      current: entry.current,
    };
  }
  const e = entry as Education;
  return {
    first: e.degree,
    second: e.institution,
    from: e.from,
    to: e.to ?? "",
    current: e.current,
  };
}

/** One entry's form (or, without `entry`, the form that adds one). */
export function EntryForm({
  kind,
  entry,
  first,
  last,
}: {
  kind: EntryKind;
  entry?: Entry;
  first?: boolean;
  last?: boolean;
}) {
  const text = ENTRY[kind];
  const key = entry ? `${kind}-${entry.id}` : `${kind}-new`;
  const fetcher = useFetcher();
  const deleter = useFetcher({ key: `${kind}-delete` });
  const result = useFormResult(key, fetcher);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const stored = entryValues(kind, entry);
  const busy = fetcher.state !== "idle";
  const showConfirm = entry && (confirming || result?.confirmDelete);

  // A new entry's form starts empty again once it is added.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!entry && fetcher.state === "idle" && (fetcher.data as FormResult | undefined)?.ok) {
      formRef.current?.reset();
    }
  }, [entry, fetcher.state, fetcher.data]);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const name = entry ? `${stored.first} at ${stored.second}` : text.add;
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      aria-label={name}
      noValidate
      className={`space-y-4 rounded-xl border p-4 ${entry ? "border-slate-200 dark:border-slate-700" : "mt-6 border-dashed border-slate-300 dark:border-slate-600"}`}
    >
      {entry ? (
        <input type="hidden" name="id" value={entry.id} />
      ) : (
        <h3 className="font-semibold text-slate-900 dark:text-white">{text.add}</h3>
      )}
      <EntryFields kind={kind} stored={stored} result={result} />
      <div className="flex flex-wrap items-center gap-2">
        {entry ? (
          <EntryActions
            kind={kind}
            busy={busy}
            first={first}
            last={last}
            onDelete={() => setConfirming(true)}
          />
        ) : (
          <button
            type="submit"
            name="intent"
            value={`add-${kind}`}
            disabled={busy}
            className={buttonClass({ size: "sm" })}
          >
            <Plus aria-hidden="true" className="size-4" />
            {text.add}
          </button>
        )}
        <FormStatus ok={result?.ok} message={result?.confirmDelete ? undefined : result?.message} />
      </div>
      {showConfirm ? (
        <ConfirmDelete
          name={name}
          kind={kind}
          buttonRef={confirmRef}
          onConfirm={() => {
            // One fetcher for the list reports the deletion, since this entry's form goes with it.
            deleter.submit({ intent: `delete-${kind}`, id: String(entry.id) }, { method: "post" });
            setConfirming(false);
          }}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </fetcher.Form>
  );
}

/** The entry's fields: as typed when a save was refused, else as stored. */
function EntryFields({
  kind,
  stored,
  result,
}: {
  kind: EntryKind;
  stored: EntryValues;
  result: FormResult | undefined;
}) {
  const text = ENTRY[kind];
  const [firstField, secondField] = text.fields;
  const values = result?.ok === false ? result.values : undefined;
  const errors = result?.errors ?? {};
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={firstField[1]}
          name={firstField[0]}
          defaultValue={values?.[firstField[0]] ?? stored.first}
          error={errors[firstField[0]]}
        />
        <TextField
          label={secondField[1]}
          name={secondField[0]}
          defaultValue={values?.[secondField[0]] ?? stored.second}
          error={errors[secondField[0]]}
        />
        <TextField
          label="From"
          name="from"
          placeholder="2023-03"
          inputMode="numeric"
          defaultValue={values?.from ?? stored.from}
          error={errors.from}
          hint="YYYY-MM (or YYYY, or YYYY-MM-DD)"
        />
        <TextField
          label="To"
          name="to"
          placeholder="2024-06"
          inputMode="numeric"
          defaultValue={values?.to ?? stored.to}
          error={errors.to}
          hint="Leave empty when it is still going"
        />
      </div>
      <CheckboxField
        label={text.current}
        name="current"
        defaultChecked={values ? values.current === "on" : stored.current}
      />
    </>
  );
}

/** Save, Move up, Move down and Delete for a stored entry. */
function EntryActions({
  kind,
  busy,
  first,
  last,
  onDelete,
}: {
  kind: EntryKind;
  busy: boolean;
  first?: boolean;
  last?: boolean;
  onDelete: () => void;
}) {
  return (
    <>
      <button
        type="submit"
        name="intent"
        value={`save-${kind}`}
        disabled={busy}
        className={buttonClass({ size: "sm" })}
      >
        Save
      </button>
      <button
        type="submit"
        name="intent"
        value={`up-${kind}`}
        disabled={busy || first}
        className={buttonClass({ variant: "secondary", size: "sm" })}
      >
        <ArrowUp aria-hidden="true" className="size-4" />
        Move up
      </button>
      <button
        type="submit"
        name="intent"
        value={`down-${kind}`}
        disabled={busy || last}
        className={buttonClass({ variant: "secondary", size: "sm" })}
      >
        <ArrowDown aria-hidden="true" className="size-4" />
        Move down
      </button>
      <button
        type="submit"
        name="intent"
        value={`ask-${kind}`}
        className={buttonClass({ variant: "danger", size: "sm" })}
        onClick={(event) => {
          // With JavaScript the confirmation shows at once; without, the server shows it.
          event.preventDefault();
          onDelete();
        }}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Delete
      </button>
    </>
  );
}

/** "Delete …? This cannot be undone.", with Confirm delete and Cancel. */
function ConfirmDelete({
  name,
  kind,
  buttonRef,
  onConfirm,
  onCancel,
}: {
  name: string;
  kind: EntryKind;
  buttonRef: RefObject<HTMLButtonElement | null>;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div
      role="group"
      aria-label="Confirm delete"
      className="flex flex-wrap items-center gap-2 rounded-lg bg-red-50 p-3 dark:bg-red-950"
    >
      <p className="text-sm text-red-900 dark:text-red-100">
        Delete “{name}”? This cannot be undone.
      </p>
      <button
        ref={buttonRef}
        type="submit"
        name="intent"
        value={`delete-${kind}`}
        className={buttonClass({ variant: "danger", size: "sm" })}
        onClick={(event) => {
          // Without JavaScript this submits the form.
          event.preventDefault();
          onConfirm();
        }}
      >
        Confirm delete
      </button>
      <button
        type="button"
        className={buttonClass({ variant: "secondary", size: "sm" })}
        onClick={onCancel}
      >
        Cancel
      </button>
    </div>
  );
}

import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState, type RefObject } from "react";
import { useFetcher } from "react-router";

import { buttonClass } from "~/ui/button";
import { CheckboxField, FormStatus, TextField } from "~/ui/fields";

import { EDITOR_ACTIONS } from "../editor/actions";
import { useFormResult, type FormResult } from "../editor/form-result";
import { CancelButton, IntentButton } from "../editor/form-buttons";
import { TIMELINES, entryHeading, entryTexts, type Entry, type TimelineKind } from "./timeline";

/** One entry's form (or, without `entry`, the form that adds one). */
export function EntryForm({
  kind,
  entry,
  first,
  last,
}: {
  kind: TimelineKind;
  entry?: Entry;
  first?: boolean;
  last?: boolean;
}) {
  const timeline = TIMELINES[kind];
  const key = entry ? `${kind}-${entry.id}` : `${kind}-new`;
  const fetcher = useFetcher();
  const deleter = useFetcher({ key: `${kind}-delete` });
  const result = useFormResult(key, fetcher);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
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

  const name = entry ? entryHeading(kind, entry) : timeline.add;
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={EDITOR_ACTIONS[kind]}
      aria-label={name}
      noValidate
      className={`space-y-4 rounded-xl border p-4 ${entry ? "border-slate-200 dark:border-slate-700" : "mt-6 border-dashed border-slate-300 dark:border-slate-600"}`}
    >
      {entry ? (
        <input type="hidden" name="id" value={entry.id} />
      ) : (
        <h3 className="font-semibold text-slate-900 dark:text-white">{timeline.add}</h3>
      )}
      <EntryFields kind={kind} entry={entry} result={result} />
      <div className="flex flex-wrap items-center gap-2">
        {entry ? (
          <EntryActions
            busy={busy}
            first={first}
            last={last}
            onDelete={() => setConfirming(true)}
          />
        ) : (
          <IntentButton intent="add" disabled={busy}>
            <Plus aria-hidden="true" className="size-4" />
            {timeline.add}
          </IntentButton>
        )}
        <FormStatus ok={result?.ok} message={result?.confirmDelete ? undefined : result?.message} />
      </div>
      {showConfirm ? (
        <ConfirmDelete
          name={name}
          buttonRef={confirmRef}
          onConfirm={() => {
            // One fetcher for the list reports the deletion, since this entry's form goes with it.
            deleter.submit(
              { intent: "delete", id: String(entry.id) },
              { method: "post", action: EDITOR_ACTIONS[kind] },
            );
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
  entry,
  result,
}: {
  kind: TimelineKind;
  entry?: Entry;
  result: FormResult | undefined;
}) {
  const timeline = TIMELINES[kind];
  const stored = entry ? entryTexts(kind, entry) : ["", ""];
  const values = result?.ok === false ? result.values : undefined;
  const errors = result?.errors ?? {};
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {timeline.fields.map((field, i) => (
          <TextField
            key={field.name}
            label={field.label}
            name={field.name}
            defaultValue={values?.[field.name] ?? stored[i]}
            error={errors[field.name]}
          />
        ))}
        <TextField
          label="From"
          name="from"
          placeholder="2023-03"
          inputMode="numeric"
          defaultValue={values?.from ?? entry?.from ?? ""}
          error={errors.from}
          hint="YYYY-MM (or YYYY, or YYYY-MM-DD)"
        />
        <TextField
          label="To"
          name="to"
          placeholder="2024-06"
          inputMode="numeric"
          defaultValue={values?.to ?? entry?.to ?? ""}
          error={errors.to}
          hint="Leave empty when it is still going"
        />
      </div>
      <CheckboxField
        label={timeline.current}
        name="current"
        defaultChecked={values ? values.current === "on" : (entry?.current ?? false)}
      />
    </>
  );
}

/** Save, Move up, Move down and Delete for a stored entry. */
function EntryActions({
  busy,
  first,
  last,
  onDelete,
}: {
  busy: boolean;
  first?: boolean;
  last?: boolean;
  onDelete: () => void;
}) {
  return (
    <>
      <IntentButton intent="save" disabled={busy}>
        Save
      </IntentButton>
      <IntentButton intent="up" variant="secondary" disabled={busy || first}>
        <ArrowUp aria-hidden="true" className="size-4" />
        Move up
      </IntentButton>
      <IntentButton intent="down" variant="secondary" disabled={busy || last}>
        <ArrowDown aria-hidden="true" className="size-4" />
        Move down
      </IntentButton>
      <IntentButton
        intent="ask"
        variant="danger"
        onClick={(event) => {
          // With JavaScript the confirmation shows at once; without, the server shows it.
          event.preventDefault();
          onDelete();
        }}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Delete
      </IntentButton>
    </>
  );
}

/** "Delete …? This cannot be undone.", with Confirm delete and Cancel. */
function ConfirmDelete({
  name,
  buttonRef,
  onConfirm,
  onCancel,
}: {
  name: string;
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
        value="delete"
        className={buttonClass({ variant: "danger", size: "sm" })}
        onClick={(event) => {
          // Without JavaScript this submits the form.
          event.preventDefault();
          onConfirm();
        }}
      >
        Confirm delete
      </button>
      <CancelButton onClick={onCancel} />
    </div>
  );
}

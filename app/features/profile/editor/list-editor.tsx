import { Plus, Trash2 } from "lucide-react";
import { useState, type ReactNode } from "react";

import { buttonClass } from "~/ui/button";

import { listFieldName, readListRows, type ListName } from "./list-fields";

export type Row = Record<string, string> & { key: string };
export type SetField = (field: string, value: string) => void;
/** A field's name in the form for this row ("socials.2.url"), which its error is keyed by too. */
export type FieldName = (field: string) => string;

let rowSerial = 0;
const newKey = () => `row-${++rowSerial}`;

/** A list's rows: as typed (after a refused save without JavaScript) or as stored, plus a blank one. */
function initialRows(
  list: ListName,
  stored: Record<string, string>[],
  blank: Record<string, string>,
  values?: Record<string, string>,
): Row[] {
  if (values) {
    return readListRows(values, list, Object.keys(blank)).map(({ number, item }, i) => ({
      key: `${list}-${i}`,
      ...item,
      // Errors name the row by its number in the submitted form.
      number: String(number),
    }));
  }
  return [...stored, blank].map((row, i) => ({ key: `${list}-${i}`, ...row }));
}

/**
 * One list of the profile (links, skills, tools): a row per item, a blank row to add one
 * without JavaScript (a row left empty is dropped), Add and Remove buttons with it.
 */
export function ListEditor({
  list,
  title,
  addLabel,
  stored,
  blank,
  values,
  errors,
  render,
}: {
  list: ListName;
  title: string;
  addLabel: string;
  stored: Record<string, string>[];
  blank: Record<string, string>;
  values?: Record<string, string>;
  errors: Record<string, string>;
  render: (row: Row, fieldName: FieldName, setField: SetField) => ReactNode;
}) {
  const [rows, setRows] = useState(() => initialRows(list, stored, blank, values));
  const errorKeys = Object.keys(errors).filter((key) => key.startsWith(`${list}.`));
  const listError = errors[list];
  return (
    <fieldset className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <legend className="px-1 text-lg font-semibold text-slate-900 dark:text-white">{title}</legend>
      {listError ? (
        <p className="text-sm text-red-800 dark:text-red-300" role="alert">
          {listError}
        </p>
      ) : null}
      <ol className="space-y-4">
        {rows.map((row, i) => {
          const n = row.number !== undefined ? Number(row.number) : i;
          const setField = (field: string, value: string) =>
            setRows((all) => all.map((r) => (r.key === row.key ? { ...r, [field]: value } : r)));
          return (
            <li
              key={row.key}
              aria-label={`${title}: row ${i + 1}`}
              className="grid items-end gap-3 sm:grid-cols-[repeat(3,minmax(0,1fr))_auto]"
            >
              {render(row, (field) => listFieldName(list, n, field), setField)}
              <button
                type="button"
                className={buttonClass({ variant: "secondary", size: "sm" })}
                aria-label={`Remove ${title.toLowerCase()} row ${i + 1}`}
                onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
              >
                <Trash2 aria-hidden="true" className="size-4" />
                Remove
              </button>
            </li>
          );
        })}
      </ol>
      {errorKeys.length > 0 ? <span className="sr-only">{errorKeys.length} errors</span> : null}
      <button
        type="button"
        className={buttonClass({ variant: "secondary", size: "sm", className: "mt-4" })}
        onClick={() => setRows((all) => [...all, { key: newKey(), ...blank }])}
      >
        <Plus aria-hidden="true" className="size-4" />
        {addLabel}
      </button>
    </fieldset>
  );
}

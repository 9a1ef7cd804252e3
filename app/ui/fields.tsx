import { useId, type ReactNode } from "react";

/** Form controls of the owner's pages: a visible label, the error under the field, tied to it. */

export const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 aria-[invalid=true]:border-red-700 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:aria-[invalid=true]:border-red-400";
export const labelClass = "block text-sm font-medium text-slate-800 dark:text-slate-200";

export function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-800 dark:text-red-300">
      {error}
    </p>
  );
}

type TextFieldProps = {
  label: string;
  name: string;
  defaultValue?: string;
  error?: string;
  hint?: string;
  type?: "text" | "email" | "url";
  multiline?: number;
  placeholder?: string;
  inputMode?: "numeric" | "text";
  required?: boolean;
};

export function TextField({
  label,
  name,
  defaultValue,
  error,
  hint,
  type = "text",
  multiline,
  placeholder,
  inputMode,
  required,
}: TextFieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(" ");
  const common = {
    id,
    name,
    defaultValue,
    placeholder,
    required,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described || undefined,
    className: inputClass,
  };
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {multiline ? (
        <textarea rows={multiline} {...common} />
      ) : (
        <input type={type} inputMode={inputMode} {...common} />
      )}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

export function CheckboxField({
  label,
  name,
  defaultChecked,
}: {
  label: string;
  name: string;
  defaultChecked?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        className="size-4 rounded border-slate-400 accent-sky-700"
      />
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
    </div>
  );
}

export function SelectField({
  label,
  name,
  value,
  options,
  onChange,
  error,
  preview,
}: {
  label: string;
  name: string;
  value: string;
  options: Readonly<Record<string, string>>;
  onChange?: (value: string) => void;
  error?: string;
  /** The chosen option drawn beside the list. */
  preview?: ReactNode;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <div className="mt-1 flex items-center gap-2">
        <select
          id={id}
          name={name}
          // Uncontrolled without JavaScript; kept in step with the preview with it.
          defaultValue={value}
          onChange={(event) => onChange?.(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${inputClass} mt-0`}
        >
          {Object.entries(options).map(([key, text]) => (
            <option key={key} value={key}>
              {text}
            </option>
          ))}
        </select>
        {preview ? (
          <span
            data-testid="icon-preview"
            className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-slate-200 text-slate-800 dark:border-slate-700 dark:text-slate-100"
          >
            {preview}
          </span>
        ) : null}
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

/** A form's outcome: "Saved." as a status, a problem as an alert. */
export function FormStatus({ ok, message }: { ok?: boolean; message?: string }) {
  return (
    <p
      role={ok === false ? "alert" : "status"}
      className={
        ok === false
          ? "text-sm font-medium text-red-800 dark:text-red-300"
          : "text-sm font-medium text-emerald-800 dark:text-emerald-300"
      }
    >
      {message ?? ""}
    </p>
  );
}

import { useActionData, type FetcherWithComponents } from "react-router";

import type { FieldErrors } from "../profile";

/**
 * What an action answers, for the form that sent it (`form`: "profile", "experience-3",
 * "experience-new", "photo", "import"…): a confirmation, or what is wrong and what was typed.
 */
export type FormResult = {
  form: string;
  ok: boolean;
  message?: string;
  errors?: FieldErrors;
  /** What was submitted, so a page rendered without JavaScript shows it again. */
  values?: Record<string, string>;
  /** Delete asked for: show the confirmation (pages rendered without JavaScript). */
  confirmDelete?: boolean;
  preview?: ImportPreview;
};

export type ImportPreview = {
  /** The checked document, sent back with the confirmation. */
  document: string;
  changes: { field: string; from: string; to: string }[];
  experiences: { from: string[]; to: string[] };
  education: { from: string[]; to: string[] };
  ignored: string[];
};

/** The result for one form: its fetcher's (with JavaScript) or the page's (without). */
export function useFormResult(
  key: string,
  fetcher: FetcherWithComponents<unknown>,
): FormResult | undefined {
  const actionData = useActionData<FormResult>();
  const own = fetcher.data as FormResult | undefined;
  if (own?.form === key) return own;
  if (fetcher.state === "idle" && !own && actionData?.form === key) return actionData;
  return undefined;
}

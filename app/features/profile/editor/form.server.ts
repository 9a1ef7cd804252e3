import { data } from "react-router";

import { PostedFormError, readPostedForm, type PostedFile } from "~/lib/posted-form.server";

import { PROFILE_TEXT, type FieldErrors } from "../profile";
import type { FormResult } from "./form-result";

/**
 * What every form of /admin/profile shares on the server: reading the post, naming what it
 * asks for, and answering its form. Each section's action (one route each, app/routes.ts)
 * handles its own buttons only.
 */

/** An action's answer: the HTTP status, and the result its form shows. */
export type Answer = { status: number; result: FormResult };

/** Every text field of a form, as typed (files left out). */
export function valuesOf(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}

/** Which of a section's buttons sent the form (`intent`), or null for none of them. */
export function intentOf<Intent extends string>(
  form: FormData,
  intents: readonly Intent[],
): Intent | null {
  const sent = form.get("intent");
  return intents.find((intent) => intent === sent) ?? null;
}

/** The field an upload's file is posted in (the photo's and the CV's forms). */
export const FILE_FIELD = "file";

/** A form's files by field name (readPostedForm). */
export type Files = ReadonlyMap<string, PostedFile>;

/** The uploaded file's bytes, or null when none was chosen. */
export function fileOf(files: Files): Uint8Array | null {
  return files.get(FILE_FIELD)?.bytes ?? null;
}

export const invalid = (
  form: string,
  values: Record<string, string>,
  errors: FieldErrors,
): Answer => ({
  status: 400,
  result: { form, ok: false, errors, values, message: Object.values(errors)[0] },
});
export const done = (form: string, message: string = PROFILE_TEXT.saved): Answer => ({
  status: 200,
  result: { form, ok: true, message },
});
export const failed = (form: string, status: number, message: string): Answer => ({
  status,
  result: { form, ok: false, message },
});
export const unknownIntent = () => failed("form", 400, "Unknown action.");

/**
 * Reads the posted form and answers with what `handle` makes of it. The caller has checked
 * the owner first: a stranger's upload is not even received. A form with a file names its
 * field and the file's limit in `uploads`: the form is read as it arrives
 * (readPostedForm), never joined whole.
 */
export async function answerForm(
  request: Request,
  handle: (form: FormData, files: Files) => Promise<Answer>,
  uploads: Readonly<Record<string, number>> = {},
) {
  let posted;
  try {
    posted = await readPostedForm(request, uploads);
  } catch (error) {
    if (!(error instanceof PostedFormError)) throw error;
    return data<FormResult>({ form: "form", ok: false, message: error.message }, { status: 400 });
  }
  const { status, result } = await handle(posted.fields, posted.files);
  return data(result, { status });
}

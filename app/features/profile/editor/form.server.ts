import { setImmediate as nextTurn } from "node:timers/promises";

import { data } from "react-router";

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

/** The uploaded file's bytes, or null when none was chosen. */
export async function fileOf(form: FormData): Promise<Uint8Array | null> {
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return null;
  const bytes = new Uint8Array(await file.arrayBuffer());
  // Copying a 10 MB file out of the form holds the event loop for tens of milliseconds on a
  // busy machine: a turn here lets the requests waiting meanwhile go first (as after reading it).
  await nextTurn();
  return bytes;
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
 * the owner first: a stranger's upload is not even received.
 */
export async function answerForm(request: Request, handle: (form: FormData) => Promise<Answer>) {
  let form: FormData;
  try {
    form = await request.formData();
    // Reading a 10 MB upload's form (the body joined, then split into its parts) held the event
    // loop for about 100 ms in one piece, with copying its file after it for 70 ms more: cached
    // pages waited behind both (tests/load/owner-actions.test.ts). Each gets a turn of its own.
    await nextTurn();
  } catch {
    return data<FormResult>(
      { form: "form", ok: false, message: "The form could not be read." },
      { status: 400 },
    );
  }
  const { status, result } = await handle(form);
  return data(result, { status });
}

import type { z } from "zod";

import type { Database } from "../../../../database/db.server";
import { HANDLE_TEXT, readHandle } from "~/features/social";
import { fieldErrors, profileSchema, splitParagraphs, type FieldErrors } from "../profile";
import { saveProfile } from "../profile.server";
import { done, intentOf, invalid, unknownIntent, valuesOf, type Answer } from "./form.server";
import { readListRows, type ListName } from "./list-fields";

/**
 * A list's items from the form, and the number each kept one had in it. A row left entirely
 * empty is dropped (that is how a form without JavaScript removes one): the picker always has
 * a value, so a row counts as empty when its typed fields are.
 */
function listItems<Field extends string>(
  values: Record<string, string>,
  list: ListName,
  [picked, ...typed]: readonly [Field, ...Field[]],
) {
  const kept = readListRows(values, list, [picked, ...typed]).filter(({ item }) =>
    typed.some((field) => item[field].trim() !== ""),
  );
  return { rows: kept.map((row) => row.number), items: kept.map((row) => row.item) };
}

function readProfileForm(values: Record<string, string>) {
  const socials = listItems(values, "socials", ["kind", "label", "url"]);
  const skills = listItems(values, "skills", ["icon", "name"]);
  const tools = listItems(values, "tools", ["icon", "name"]);
  const input = {
    name: values.name ?? "",
    title: values.title ?? "",
    location: values.location ?? "",
    email: values.email ?? "",
    about: splitParagraphs(values.about ?? ""),
    socials: socials.items,
    skills: skills.items,
    tools: tools.items,
  };
  const rowsOf: Record<string, number[]> = {
    socials: socials.rows,
    skills: skills.rows,
    tools: tools.rows,
  };
  return { input, rowsOf };
}

/** zod's paths count kept rows; the form's names count every row shown. */
function errorsForForm(error: z.ZodError, rowsOf: Record<string, number[]>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, message] of Object.entries(fieldErrors(error))) {
    const [list, index, ...rest] = key.split(".");
    const rows = list ? rowsOf[list] : undefined;
    if (list === "about") {
      errors.about ??= message;
    } else if (rows && index !== undefined && /^\d+$/.test(index)) {
      errors[[list, rows[Number(index)] ?? index, ...rest].join(".")] ??= message;
    } else {
      errors[key] ??= message;
    }
  }
  return errors;
}

/** The profile form's Save: the text and the three lists, checked and saved together. */
export async function editProfile(db: Database, form: FormData): Promise<Answer> {
  if (intentOf(form, ["save"]) === null) return unknownIntent();
  const values = valuesOf(form);
  const { input, rowsOf } = readProfileForm(values);
  const parsed = profileSchema.safeParse(input);
  // Absent from a form that has no such field (an older page): kept.
  const handle =
    values.fediverseHandle === undefined ? undefined : readHandle(values.fediverseHandle);
  if (!parsed.success || handle === null) {
    const errors = parsed.success ? {} : errorsForForm(parsed.error, rowsOf);
    if (handle === null) errors.fediverseHandle = HANDLE_TEXT.invalid;
    return invalid("profile", values, errors);
  }
  await saveProfile(db, parsed.data, handle);
  return done("profile");
}

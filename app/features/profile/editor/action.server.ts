import type { z } from "zod";

import type { Database } from "../../../../database/db.server";
import { jobExperiences, education } from "../../../../database/schema";
import { UPLOAD_TEXT } from "~/features/media";
import { processCv, processPhoto, storeMedia } from "~/features/media/index.server";
import { parseSerialId } from "~/lib/ids";

import {
  educationSchema,
  experienceSchema,
  fieldErrors,
  profileSchema,
  PROFILE_TEXT,
  RESUME_IMPORT_MAX_BYTES,
  RESUME_TEXT,
  splitParagraphs,
  type FieldErrors,
  type ProfileContent,
} from "../profile";
import {
  addEducation,
  addExperience,
  deleteEntry,
  getProfile,
  listExperiences,
  listEducation,
  moveEntry,
  replaceCv,
  replacePhoto,
  replaceResume,
  saveProfile,
  updateEducation,
  updateExperience,
} from "../profile.server";
import { fromResume } from "../resume-import.server";
import { validateResume } from "../resume.server";
import type { FormResult, ImportPreview } from "./form-result";

const NOT_FOUND = "This entry no longer exists: reload the page.";

/** Every text field of a form, as typed (files left out). */
function valuesOf(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/**
 * A list's rows from fields named `{list}.{row}.{field}`, in row order. A row left entirely
 * empty is dropped (that is how a form without JavaScript removes one); `rows` keeps each kept
 * row's number in the form, so errors point at the field the owner sees.
 */
function listRows<F extends string>(form: FormData, list: string, fields: readonly F[]) {
  const numbers = new Set<number>();
  const pattern = new RegExp(`^${list}\\.(\\d{1,3})\\.`);
  for (const key of form.keys()) {
    const match = pattern.exec(key);
    if (match) numbers.add(Number(match[1]));
  }
  const rows: number[] = [];
  const items: Record<F, string>[] = [];
  for (const n of [...numbers].sort((a, b) => a - b)) {
    const item = Object.fromEntries(
      fields.map((field) => [field, text(form, `${list}.${n}.${field}`)]),
    ) as Record<F, string>;
    const [, ...typed] = fields;
    // The picker always has a value: a row counts as empty when its typed fields are.
    if (typed.every((field) => item[field].trim() === "")) continue;
    rows.push(n);
    items.push(item);
  }
  return { rows, items };
}

function readProfileForm(form: FormData) {
  const socials = listRows(form, "socials", ["kind", "label", "url"] as const);
  const skills = listRows(form, "skills", ["icon", "name"] as const);
  const tools = listRows(form, "tools", ["icon", "name"] as const);
  const input = {
    name: text(form, "name"),
    title: text(form, "title"),
    location: text(form, "location"),
    email: text(form, "email"),
    about: splitParagraphs(text(form, "about")),
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

function readEntryForm(form: FormData, kind: "experience" | "education") {
  if (kind === "experience") {
    return experienceSchema.safeParse({
      title: text(form, "title"),
      company: text(form, "company"),
      from: text(form, "from"),
      to: text(form, "to"),
      current: form.get("current") === "on",
    });
  }
  return educationSchema.safeParse({
    degree: text(form, "degree"),
    institution: text(form, "institution"),
    from: text(form, "from"),
    to: text(form, "to"),
    current: form.get("current") === "on",
  });
}

async function readFile(form: FormData): Promise<Uint8Array | null> {
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return null;
  return new Uint8Array(await file.arrayBuffer());
}

const invalid = (form: string, values: Record<string, string>, errors: FieldErrors) => ({
  status: 400,
  result: { form, ok: false, errors, values, message: Object.values(errors)[0] } as FormResult,
});
const done = (form: string, message: string = PROFILE_TEXT.saved) => ({
  status: 200,
  result: { form, ok: true, message } as FormResult,
});
const failed = (form: string, status: number, message: string) => ({
  status,
  result: { form, ok: false, message } as FormResult,
});

/** The owner's edit of the résumé: one intent per button of /admin/profile. */
export async function handleProfileAction(
  db: Database,
  form: FormData,
): Promise<{ status: number; result: FormResult }> {
  const intent = text(form, "intent");
  const values = valuesOf(form);
  const [verb, kind] = intent.split("-") as [string, string | undefined];

  if (intent === "save-profile") {
    const { input, rowsOf } = readProfileForm(form);
    const parsed = profileSchema.safeParse(input);
    if (!parsed.success) return invalid("profile", values, errorsForForm(parsed.error, rowsOf));
    await saveProfile(db, parsed.data as ProfileContent);
    return done("profile");
  }

  if ((kind === "experience" || kind === "education") && verb) {
    const table = kind === "experience" ? jobExperiences : education;
    if (verb === "add") {
      const parsed = readEntryForm(form, kind);
      const key = `${kind}-new`;
      if (!parsed.success) return invalid(key, values, fieldErrors(parsed.error));
      if (kind === "experience") await addExperience(db, parsed.data as never);
      else await addEducation(db, parsed.data as never);
      return done(key, "Added.");
    }
    const id = parseSerialId(text(form, "id"));
    const key = `${kind}-${id ?? "unknown"}`;
    if (id === null) return failed(key, 404, NOT_FOUND);
    switch (verb) {
      case "save": {
        const parsed = readEntryForm(form, kind);
        if (!parsed.success) return invalid(key, values, fieldErrors(parsed.error));
        const found =
          kind === "experience"
            ? await updateExperience(db, id, parsed.data as never)
            : await updateEducation(db, id, parsed.data as never);
        return found ? done(key) : failed(key, 404, NOT_FOUND);
      }
      case "ask":
        return { status: 200, result: { form: key, ok: true, confirmDelete: true } };
      case "delete":
        return (await deleteEntry(db, table, id))
          ? done(`${kind}-deleted`, "Deleted.")
          : failed(key, 404, NOT_FOUND);
      case "up":
      case "down":
        await moveEntry(db, table, id, verb);
        return done(key, verb === "up" ? "Moved up." : "Moved down.");
    }
  }

  switch (intent) {
    case "upload-photo": {
      const bytes = await readFile(form);
      if (!bytes) return failed("photo", 400, UPLOAD_TEXT.noFile);
      const processed = await processPhoto(bytes);
      if (!processed.ok) return failed("photo", 400, processed.error);
      const stored = await storeMedia(db, "photo", processed.files);
      await replacePhoto(db, {
        files: stored.map((f) => ({
          hash: f.hash,
          type: f.contentType as "image/webp" | "image/jpeg",
          width: f.width!,
          height: f.height!,
        })),
      });
      return done("photo", "Photo uploaded.");
    }
    case "remove-photo":
      await replacePhoto(db, null);
      return done("photo", "Photo removed.");
    case "upload-cv": {
      const bytes = await readFile(form);
      if (!bytes) return failed("cv", 400, UPLOAD_TEXT.noFile);
      const processed = await processCv(bytes);
      if (!processed.ok) return failed("cv", 400, processed.error);
      const [stored] = await storeMedia(db, "cv", processed.files);
      await replaceCv(db, { hash: stored!.hash, size: stored!.size });
      return done("cv", "CV uploaded.");
    }
    case "remove-cv":
      await replaceCv(db, null);
      return done("cv", "CV removed.");
    case "import-preview":
    case "import-confirm":
      return importResume(db, form, intent === "import-confirm");
  }
  return failed("form", 400, "Unknown action.");
}

/** A JSON Resume import: checked and previewed first, applied only when confirmed. */
async function importResume(db: Database, form: FormData, confirm: boolean) {
  let raw: string;
  if (confirm) {
    raw = text(form, "document");
  } else {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0)
      return failed("import", 400, UPLOAD_TEXT.noFile);
    if (file.size > RESUME_IMPORT_MAX_BYTES) return failed("import", 400, RESUME_TEXT.tooLarge);
    raw = await file.text();
  }
  let document: unknown;
  try {
    document = JSON.parse(raw);
  } catch {
    return failed("import", 400, RESUME_TEXT.notJson);
  }
  const checked = validateResume(document);
  if (!checked.ok) return refused(checked.errors);
  const imported = fromResume(checked.resume);
  if (!imported.ok) return refused(imported.errors);

  if (confirm) {
    await replaceResume(db, imported);
    return done("import", RESUME_TEXT.imported);
  }
  const [current, experiences, education] = await Promise.all([
    getProfile(db),
    listExperiences(db),
    listEducation(db),
  ]);
  const fields: [string, (p: ProfileContent) => string][] = [
    ["Name", (p) => p.name],
    ["Title", (p) => p.title],
    ["Location", (p) => p.location],
    ["E-mail", (p) => p.email],
    ["About", (p) => p.about.join("\n\n")],
    ["Links", (p) => p.socials.map((s) => `${s.label} (${s.url})`).join(", ")],
    ["Skills", (p) => p.skills.map((s) => s.name).join(", ")],
    ["Tools", (p) => p.tools.map((t) => t.name).join(", ")],
  ];
  const preview: ImportPreview = {
    document: JSON.stringify(checked.resume),
    changes: fields
      .map(([field, read]) => ({
        field,
        from: current ? read(current) : "",
        to: read(imported.profile),
      }))
      .filter((change) => change.from !== change.to),
    experiences: {
      from: experiences.map((e) => `${e.title} at ${e.company}`),
      to: imported.experiences.map((e) => `${e.title} at ${e.company}`),
    },
    education: {
      from: education.map((e) => `${e.degree} at ${e.institution}`),
      to: imported.education.map((e) => `${e.degree} at ${e.institution}`),
    },
    ignored: imported.ignored,
  };
  return { status: 200, result: { form: "import", ok: true, preview } as FormResult };
}

function refused(errors: { path: string; message: string }[]) {
  return {
    status: 400,
    result: {
      form: "import",
      ok: false,
      message: RESUME_TEXT.invalid,
      errors: Object.fromEntries(errors.map((e) => [e.path, e.message])),
    } as FormResult,
  };
}

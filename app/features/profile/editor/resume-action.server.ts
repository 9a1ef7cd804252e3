import type { Database } from "../../../../database/db.server";
import { UPLOAD_TEXT } from "~/features/media";

import { RESUME_IMPORT_MAX_BYTES, RESUME_TEXT, type ProfileContent } from "../profile";
import { getProfile, replaceResume } from "../profile.server";
import { fromResume } from "../resume-import.server";
import { validateResume } from "../resume.server";
import { entryHeading, type EntryInput, type TimelineKind } from "../timeline/timeline";
import { listEntries } from "../timeline/timeline.server";
import { failed, done, intentOf, unknownIntent, type Answer } from "./form.server";
import type { ImportPreview } from "./form-result";

/** Check and preview a file first; apply the checked document once confirmed. */
const INTENTS = ["preview", "confirm"] as const;

/** The profile's fields a preview compares, as the owner reads them. */
const PREVIEWED: [string, (p: ProfileContent) => string][] = [
  ["Name", (p) => p.name],
  ["Title", (p) => p.title],
  ["Location", (p) => p.location],
  ["E-mail", (p) => p.email],
  ["About", (p) => p.about.join("\n\n")],
  ["Links", (p) => p.socials.map((s) => `${s.label} (${s.url})`).join(", ")],
  ["Skills", (p) => p.skills.map((s) => s.name).join(", ")],
  ["Tools", (p) => p.tools.map((t) => t.name).join(", ")],
];

/** The document's text: the chosen file's, or (confirming) the checked one sent back. */
async function documentText(form: FormData, confirm: boolean): Promise<string | Answer> {
  if (confirm) {
    const sent = form.get("document");
    return typeof sent === "string" ? sent : "";
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return failed("import", 400, UPLOAD_TEXT.noFile);
  if (file.size > RESUME_IMPORT_MAX_BYTES) return failed("import", 400, RESUME_TEXT.tooLarge);
  return file.text();
}

/** A JSON Resume import: checked and previewed first, applied only when confirmed. */
export async function importResume(db: Database, form: FormData): Promise<Answer> {
  const intent = intentOf(form, INTENTS);
  if (intent === null) return unknownIntent();
  const raw = await documentText(form, intent === "confirm");
  if (typeof raw !== "string") return raw;
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

  if (intent === "confirm") {
    await replaceResume(db, imported);
    return done("import", RESUME_TEXT.imported);
  }
  const [current, experiences, education] = await Promise.all([
    getProfile(db),
    listEntries(db, "experience"),
    listEntries(db, "education"),
  ]);
  const headings = (kind: TimelineKind, entries: EntryInput[]) =>
    entries.map((entry) => entryHeading(kind, entry));
  const preview: ImportPreview = {
    document: JSON.stringify(checked.resume),
    changes: PREVIEWED.map(([field, read]) => ({
      field,
      from: current ? read(current) : "",
      to: read(imported.profile),
    })).filter((change) => change.from !== change.to),
    experiences: {
      from: headings("experience", experiences),
      to: headings("experience", imported.experiences),
    },
    education: {
      from: headings("education", education),
      to: headings("education", imported.education),
    },
    ignored: imported.ignored,
  };
  return { status: 200, result: { form: "import", ok: true, preview } };
}

function refused(errors: { path: string; message: string }[]): Answer {
  return {
    status: 400,
    result: {
      form: "import",
      ok: false,
      message: RESUME_TEXT.invalid,
      errors: Object.fromEntries(errors.map((e) => [e.path, e.message])),
    },
  };
}

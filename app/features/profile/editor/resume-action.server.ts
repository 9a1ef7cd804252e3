import type { Database } from "../../../../database/db.server";
import { UPLOAD_TEXT } from "~/features/media";

import { RESUME_TEXT, type ProfileContent } from "../profile";
import { getProfile, replaceResume } from "../profile.server";
import { checkResumeText } from "../resume-check.server";
import { fromResume } from "../resume-import.server";
import { RESUME_IMPORT_LIMITS, RESUME_LIMIT_TEXT } from "../resume-limits";
import { scanJson } from "../resume-scan.server";
import {
  DOCUMENT_PATH,
  RESUME_ERROR_TEXT,
  type ResumeDocument,
  type ResumeError,
} from "../resume.server";
import { entryHeading, type EntryInput, type TimelineKind } from "../timeline/timeline";
import { listEntries } from "../timeline/timeline.server";
import {
  failed,
  done,
  FILE_FIELD,
  fileOf,
  intentOf,
  unknownIntent,
  type Answer,
  type Files,
} from "./form.server";
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

/** What the import's form may post: the file, within the import's limit. */
export const RESUME_UPLOAD = { [FILE_FIELD]: RESUME_IMPORT_LIMITS.bytes };

/** The document's text: the chosen file's, or (confirming) the checked one sent back. */
function documentText(form: FormData, files: Files, confirm: boolean): string | Answer {
  if (confirm) {
    const sent = form.get("document");
    const text = typeof sent === "string" ? sent : "";
    if (Buffer.byteLength(text) > RESUME_IMPORT_LIMITS.bytes) {
      return failed("import", 413, RESUME_LIMIT_TEXT.confirmTooLarge);
    }
    return text;
  }
  const bytes = fileOf(files);
  if (!bytes) return failed("import", 400, UPLOAD_TEXT.noFile);
  if (bytes.byteLength > RESUME_IMPORT_LIMITS.bytes) {
    return failed("import", 400, RESUME_TEXT.tooLarge);
  }
  // As File.text() read it: UTF-8, a byte-order mark dropped, bad bytes replaced.
  return new TextDecoder().decode(bytes);
}

/**
 * The text as a checked document, or the answer that refuses it: counted first (too many
 * entries, too deep), then parsed and checked against the standard in a worker thread, and only
 * then parsed here, with nothing left to refuse but what the forms refuse.
 */
async function checkedDocument(raw: string): Promise<{ document: ResumeDocument } | Answer> {
  const scan = scanJson(raw);
  if (!scan.ok) return failed("import", 400, scan.message);
  const check = await checkResumeText(raw);
  if (check.ok) return { document: JSON.parse(raw) as ResumeDocument };
  switch (check.reason) {
    case "notJson":
      return failed("import", 400, RESUME_TEXT.notJson);
    case "notObject":
      return refused([{ path: DOCUMENT_PATH, message: RESUME_ERROR_TEXT.notObject }]);
    case "invalid":
      return refused(check.errors, check.total);
    default:
      return failed("import", 503, RESUME_LIMIT_TEXT.tooSlow);
  }
}

/** A JSON Resume import: checked and previewed first, applied only when confirmed. */
export async function importResume(db: Database, form: FormData, files: Files): Promise<Answer> {
  const intent = intentOf(form, INTENTS);
  if (intent === null) return unknownIntent();
  const raw = documentText(form, files, intent === "confirm");
  if (typeof raw !== "string") return raw;
  const checked = await checkedDocument(raw);
  if (!("document" in checked)) return checked;
  const imported = fromResume(checked.document);
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
    // The text as it came (checked, and within the limits): sent back as is when confirmed.
    document: raw,
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

/** The first RESUME_IMPORT_LIMITS.problems errors, and how many there are in all. */
function refused(errors: ResumeError[], total = errors.length): Answer {
  const shown = errors.slice(0, RESUME_IMPORT_LIMITS.problems);
  const all = Math.max(total, errors.length);
  return {
    status: 400,
    result: {
      form: "import",
      ok: false,
      message:
        all > shown.length
          ? `${RESUME_LIMIT_TEXT.moreProblems(all)} ${RESUME_TEXT.invalid}`
          : RESUME_TEXT.invalid,
      errors: Object.fromEntries(shown.map((e) => [e.path, e.message])),
    },
  };
}

/** The owner's subscriber list: its page size, the import's bounds and texts. */
import { formatBytes, formatCount } from "~/lib/format";

export const SUBSCRIBERS_PAGE_SIZE = 50;
/** The largest CSV file the import reads, and the most addresses it takes at once. */
export const IMPORT_LIMITS = { bytes: 1024 * 1024, rows: 10_000 } as const;
/** The import route's body: the file, or the previewed list, with the form's other fields. */
export const SUBSCRIBERS_BODY_LIMIT = 2 * IMPORT_LIMITS.bytes;

/** The form's fields and intents. */
export const IMPORT_FIELDS = {
  intent: "intent",
  file: "file",
  emails: "emails",
  consent: "consent",
  id: "id",
} as const;
export const INTENTS = { preview: "preview", import: "import", remove: "remove" } as const;

export const ADMIN_TEXT = {
  title: "Subscribers",
  empty: "No subscribers yet.",
  noMatch: "No subscriber matches.",
  searchLabel: "Search addresses",
  export: "Export CSV",
  importHeading: "Import from CSV",
  importHint: `One address per row, in a column named "email" or the first column. At most ${formatCount(IMPORT_LIMITS.rows)} rows, ${formatBytes(IMPORT_LIMITS.bytes)}.`,
  preview: "Preview",
  consent:
    "These people consented to get posts by e-mail (they are added as confirmed, with no confirmation mail). Unchecked, each gets a confirmation mail and stays pending until it is followed.",
  importButton: "Import",
  remove: "Remove",
  noFile: "Choose a CSV file.",
  tooLarge: `The file is larger than ${formatBytes(IMPORT_LIMITS.bytes)}.`,
  tooMany: `The file has more than ${formatCount(IMPORT_LIMITS.rows)} rows.`,
  nothingNew: "No new addresses to import.",
} as const;

export const importedText = (added: number, consented: boolean) =>
  `Imported ${formatCount(added)} address${added === 1 ? "" : "es"}${consented ? " as confirmed" : "; each was sent a confirmation mail"}.`;

/** What the page's forms answer. */
export type AdminActionData =
  | { kind: "preview"; preview: ImportPreview }
  | { kind: "done"; message: string }
  | { kind: "error"; message: string };

/** What the preview shows: the rows that would be added, those already there, those refused. */
export type ImportPreview = {
  fresh: string[];
  existing: string[];
  invalid: { line: number; text: string }[];
};

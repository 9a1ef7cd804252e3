import { formatBytes } from "~/lib/format";

/**
 * The largest export /admin/import takes (a 2,000-post WXR is some 20 MB), and how much of a
 * kept upload the import job reads per statement (a few tens of milliseconds on the embedded
 * database).
 */
export const IMPORT_LIMITS = { bytes: 32_000_000, readPartBytes: 262_144 } as const;
/** The import form's body: the file and room for its fields and multipart's boundaries. */
export const IMPORT_BODY_LIMIT = IMPORT_LIMITS.bytes + 64_000;
/** How often the page asks again while an import runs. */
export const IMPORT_POLL_MS = 2000;

export const IMPORT_FIELDS = { intent: "intent", file: "file", id: "id" } as const;
export const IMPORT_INTENTS = { preview: "preview", import: "import" } as const;

export const IMPORT_TEXT = {
  title: "Import posts",
  hint: "A WordPress export (WXR), a Ghost JSON export, Medium's export zip, dev.to's export (its articles JSON or zip), or Markdown files with front matter (one file or a zip).",
  preview: "Dry run",
  confirm: "Import",
  noFile: "Choose an export file.",
  tooLarge: `The file is larger than ${formatBytes(IMPORT_LIMITS.bytes)}.`,
  nothing: "Nothing to import: every post in this export is here already or skipped.",
  queued: "The import has started.",
  gone: "That dry run was already imported or is no longer there.",
} as const;

/** The action's answers, as the page shows them. */
export type ImportActionData =
  | { kind: "error"; message: string }
  | { kind: "plan"; id: number; lines: string[]; posts: number }
  | { kind: "queued"; message: string };

/** The newest import's state, as the loader gives it. */
export type ImportState = {
  fileName: string;
  status: "planned" | "queued" | "running" | "done" | "failed";
  done: number;
  total: number;
  result: {
    created: number;
    failed: { title: string; reason: string }[];
    skipped: number;
    images?: { rehosted: number; failed: { src: string; title: string; reason: string }[] };
  } | null;
} | null;

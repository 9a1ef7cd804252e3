export {
  importKey,
  planImport,
  type ImportContext,
  type ImportPlan,
  type PlannedPost,
} from "./plan";
export type { ImportSource, ImportedPost, ParsedExport, SkippedEntry } from "./types";
export { IMPORT_BODY_LIMIT, IMPORT_LIMITS, IMPORT_TEXT } from "./admin";
export { ImportAdmin } from "./import-admin";

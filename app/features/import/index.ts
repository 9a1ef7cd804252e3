export {
  importKey,
  planImport,
  type ImportContext,
  type ImportPlan,
  type PlannedPost,
} from "./plan";
export type { ImportSource, ImportedPost, ParsedExport, SkippedEntry } from "./types";

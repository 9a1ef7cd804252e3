export { parseGhost } from "./ghost.server";
export { parseMarkdown } from "./markdown.server";
export { parseMedium } from "./medium.server";
export { readExport, readExportFiles, type ExportFile } from "./read-export.server";
export { parseWordPress } from "./wordpress.server";
export {
  dryRun,
  importContext,
  importedPostPath,
  runImport,
  type ImportProgress,
  type ImportResult,
} from "./run.server";
export { planLines } from "./report";
export { IMPORT_JOBS, confirmImport, latestImport, planUpload } from "./jobs.server";
export { importAdminAction, importAdminData } from "./admin-action.server";

export { readExport, readExportFiles, type ExportFile } from "./read-export.server";
/** The parsers one by one, loaded on first use with their libraries (not at server start). */
export const importParsers = () => import("./parsers.server");
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

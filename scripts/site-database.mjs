// The site's database for the command-line scripts (backup, restore): opened with the server's
// own settings (DATABASE_URL or DATA_DIR), the embedded one under its lock so it is never
// written by two processes, and closed however the work ends.
import path from "node:path";
import { fileURLToPath } from "node:url";

import { templatePath } from "../database/pglite-template.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The production bundle's exports (`npm run build` makes it). */
export const site = await import(path.join(root, "build/server/index.js"));

/** Runs `work` with the open database; returns what it returns. */
export async function withSiteDatabase(work) {
  const env = site.parseEnv();
  const dataDir = path.resolve(root, env.dataDir);
  if (!env.databaseUrl) site.takeDataDirLock(dataDir);
  const database = await site.openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir,
    template: templatePath(path.join(root, "build")),
  });
  try {
    return await work(database);
  } finally {
    await database.close();
    if (!env.databaseUrl) site.releaseDataDirLock(dataDir);
  }
}

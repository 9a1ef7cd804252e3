// An embedded cluster, initialised and migrated once by the build, that the server copies into
// an empty DATA_DIR instead of running initdb: PGlite's initdb starts a second PostgreSQL
// instance beside the one that will serve, and a first start's peak held both. What it saved:
// docs/decisions/022-pglite-template.md. The build also runs the migrations on it, so that a
// first start migrates nothing and its resident set rests like a restart's
// (docs/decisions/054-migrated-template.md); the server still migrates what the template lacks
// (a build older than the source), and seeds at start.
//
// The template is a folder of the cluster's files, copied by the file system, not a tarball
// given to PGlite (`loadDataDir`): PGlite reads a tarball whole into memory and unpacks it
// there, which took a first start's peak about 100 MB above a restart's (decision 041).
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";

const require = createRequire(import.meta.url);

/** Extensions the migrations create; PGlite must load them whenever it opens the cluster. */
export const PGLITE_EXTENSIONS = { pg_trgm, unaccent };

/** The file whose presence makes a folder a cluster; copied last, so a cut copy is no cluster. */
const CLUSTER_MARK = "PG_VERSION";

/** The installed PGlite's version: a template serves only the PGlite that made it. */
export function pgliteVersion() {
  // The package exports no package.json; its entry point lives in dist/, one level down.
  const entry = require.resolve("@electric-sql/pglite");
  const file = path.join(path.dirname(entry), "..", "package.json");
  return JSON.parse(readFileSync(file, "utf8")).version;
}

/** Where the build keeps the template for the installed PGlite. */
export function templatePath(buildDir) {
  return path.join(buildDir, `pglite-template-${pgliteVersion()}`);
}

/**
 * Initialises a cluster in the folder `dir` (whole or not at all) and applies the migrations in
 * `migrationsFolder` to it; without one, it stays as initdb made it.
 */
export async function makeTemplate(dir, migrationsFolder) {
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const db = await PGlite.create(partial, { extensions: PGLITE_EXTENSIONS });
  if (migrationsFolder) await migrate(drizzle({ client: db }), { migrationsFolder });
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}

/**
 * Copies the template into `dataDir` when the directory holds no cluster yet and a template was
 * built for this PGlite; otherwise leaves it (PGlite then opens the cluster, or runs initdb).
 * A copy cut short (a full disk, a crash) lacks PG_VERSION, and the next start copies again.
 */
export function copyTemplate(dataDir, templateDir) {
  if (!templateDir || existsSync(path.join(dataDir, CLUSTER_MARK))) return false;
  if (!existsSync(path.join(templateDir, CLUSTER_MARK))) return false;
  cpSync(templateDir, dataDir, {
    recursive: true,
    force: true,
    filter: (source) => path.relative(templateDir, source) !== CLUSTER_MARK,
  });
  cpSync(path.join(templateDir, CLUSTER_MARK), path.join(dataDir, CLUSTER_MARK));
  return true;
}

// A freshly initialised embedded cluster, made once by the build, that the server copies into
// an empty DATA_DIR instead of running initdb: PGlite's initdb starts a second PostgreSQL
// instance beside the one that will serve, and a first start's peak held both. What it saved:
// docs/decisions/022-pglite-template.md. Migrations and the seed still run at start.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** The installed PGlite's version: a template serves only the PGlite that made it. */
export function pgliteVersion() {
  // The package exports no package.json; its entry point lives in dist/, one level down.
  const entry = require.resolve("@electric-sql/pglite");
  const file = path.join(path.dirname(entry), "..", "package.json");
  return JSON.parse(readFileSync(file, "utf8")).version;
}

/** Where the build keeps the template for the installed PGlite. */
export function templatePath(buildDir) {
  return path.join(buildDir, `pglite-template-${pgliteVersion()}.tar.gz`);
}

/** Initialises a cluster in memory and writes it, gzipped, to `file` (whole or not at all). */
export async function makeTemplate(file) {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create();
  try {
    const dump = await db.dumpDataDir("gzip");
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await db.close();
  }
}

/**
 * The template to load into `dataDir`, or undefined when the directory already holds a
 * cluster or no template was built for this PGlite (then PGlite runs initdb as before).
 */
export function templateFor(dataDir, file) {
  if (!file || existsSync(path.join(dataDir, "PG_VERSION")) || !existsSync(file)) return undefined;
  return new Blob([readFileSync(file)]);
}

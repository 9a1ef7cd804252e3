// npm run import -- FILE [--dry-run]: brings the posts of another blog's export into the site's
// database (DATABASE_URL or DATA_DIR, as the server): a WordPress WXR file, a Ghost JSON export,
// Medium's export zip, or Markdown files with front matter (one file, a zip or a folder). With
// --dry-run it prints what it would do and changes nothing. Importing the same export again
// creates nothing new. Stop an embedded server first (docs/decisions/040-imports.md).
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import { root, site, withSiteDatabase } from "./site-database.mjs";

const args = process.argv.slice(2);
const dryRunOnly = args.includes("--dry-run");
const file = args.find((arg) => !arg.startsWith("--"));
const unknown = args.filter((arg) => arg.startsWith("--") && arg !== "--dry-run");
if (!file || unknown.length > 0) {
  if (unknown.length > 0) console.error(`Unknown option: ${unknown.join(" ")}`);
  console.error(
    "Usage: npm run import -- FILE [--dry-run] (a WXR, Ghost JSON, Medium zip, or Markdown file, zip or folder).",
  );
  process.exit(1);
}

/** Every file under a folder, named by its path inside it. */
function filesUnder(folder, prefix = "") {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const name = `${prefix}${entry.name}`;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(full, `${name}/`);
    return entry.isFile() ? [{ name, bytes: new Uint8Array(readFileSync(full)) }] : [];
  });
}

let parsed;
try {
  const full = path.resolve(file);
  parsed = statSync(full).isDirectory()
    ? site.readExportFiles(filesUnder(full))
    : site.readExport({ name: path.basename(full), bytes: new Uint8Array(readFileSync(full)) });
} catch (error) {
  console.error(`${error.message} Nothing was changed.`);
  process.exit(1);
}

await withSiteDatabase(async (database) => {
  await database.migrate(path.join(root, "database/migrations"));
  const plan = await site.dryRun(database.db, parsed);
  for (const line of site.planLines(plan)) console.log(line);
  if (dryRunOnly) {
    console.log("Dry run: nothing was changed.");
    return;
  }
  const started = Date.now();
  const result = await site.runImport(database.db, parsed, (done, total) => {
    if (done % 50 === 0 || done === total) process.stdout.write(`Imported ${done} of ${total}\r`);
  });
  console.log("");
  for (const failed of result.failed) console.log(`  ! ${failed.title}: ${failed.reason}`);
  console.log(
    `Created ${result.created.length} posts, ${result.failed.length} failed, ` +
      `${result.skipped.length} skipped, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  if (result.failed.length > 0) process.exitCode = 1;
});

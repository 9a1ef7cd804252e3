// npm run import -- FILE [--dry-run] [--images-from URL]: brings the posts of another blog's export into the site's
// database (DATABASE_URL or DATA_DIR, as the server): a WordPress WXR file, a Ghost JSON export,
// Medium's export zip, dev.to's export (articles JSON or zip), or Markdown files with front matter (one file, a zip or a folder). With
// --dry-run it prints what it would do and changes nothing. The posts' images are fetched (from
// --images-from URL instead, when given: a copy of the old site's uploads) into the media
// pipeline; one that cannot be is reported and stays a link. Importing the same export again
// creates nothing new. Stop an embedded server first (docs/decisions/040-imports.md).
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import { root, site, withSiteDatabase } from "./site-database.mjs";

const args = process.argv.slice(2);
const dryRunOnly = args.includes("--dry-run");
const from = args.indexOf("--images-from");
const imagesFrom = from >= 0 ? args[from + 1] : undefined;
const positional = args.filter((arg, i) => !arg.startsWith("--") && (from < 0 || i !== from + 1));
const file = positional[0];
const unknown = args.filter(
  (arg) => arg.startsWith("--") && !["--dry-run", "--images-from"].includes(arg),
);
if (from >= 0 && !/^https?:\/\//.test(imagesFrom ?? ""))
  unknown.push("--images-from needs an http(s) URL");
if (!file || unknown.length > 0) {
  if (unknown.length > 0) console.error(`Unknown option: ${unknown.join(" ")}`);
  console.error(
    "Usage: npm run import -- FILE [--dry-run] (a WXR, Ghost JSON, Medium zip, dev.to JSON or zip, or Markdown file, zip or folder).",
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
    ? await site.readExportFiles(filesUnder(full))
    : await site.readExport({
        name: path.basename(full),
        bytes: new Uint8Array(readFileSync(full)),
      });
} catch (error) {
  console.error(`${error.message} Nothing was changed.`);
  process.exit(1);
}

site.setOutgoingFetchPolicy({ allowPrivate: site.parseEnv().fetchAllowPrivate });

await withSiteDatabase(async (database) => {
  await database.migrate(path.join(root, "database/migrations"));
  const plan = await site.dryRun(database.db, parsed);
  for (const line of site.planLines(plan)) console.log(line);
  if (dryRunOnly) {
    console.log("Dry run: nothing was changed.");
    return;
  }
  const started = Date.now();
  const result = await site.runImport(
    database.db,
    parsed,
    (done, total) => {
      if (done % 50 === 0 || done === total) process.stdout.write(`Imported ${done} of ${total}\r`);
    },
    { images: { imagesFrom } },
  );
  console.log("");
  for (const image of result.images.failed) {
    console.log(`  ! image ${image.src} (${image.title}): ${image.reason}; kept as a link`);
  }
  console.log(
    `Images: ${result.images.rehosted} brought here, ${result.images.failed.length} kept as links.`,
  );
  for (const failed of result.failed) console.log(`  ! ${failed.title}: ${failed.reason}`);
  console.log(
    `Created ${result.created.length} posts, ${result.failed.length} failed, ` +
      `${result.skipped.length} skipped, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  if (result.failed.length > 0) process.exitCode = 1;
});

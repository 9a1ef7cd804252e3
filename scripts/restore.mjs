// npm run restore FILE: brings a new or emptied database (DATABASE_URL or DATA_DIR, as the
// server) back to exactly what FILE holds. The file is read and checked whole first: a damaged
// one is refused with a message and nothing is changed, and so is a database that already holds
// posts, images, experience, education or messages. Stop an embedded server first.
import path from "node:path";

import { root, site, withSiteDatabase } from "./site-database.mjs";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run restore FILE (a file written by npm run backup).");
  process.exit(1);
}

let backup;
try {
  backup = site.readBackup(path.resolve(file));
} catch (error) {
  if (!(error instanceof site.BackupError)) throw error;
  console.error(`${error.message} Nothing was changed.`);
  process.exit(1);
}

await withSiteDatabase(async (database) => {
  try {
    await database.migrate(path.join(root, "database/migrations"));
    await site.restoreBackup(database.db, backup);
  } catch (error) {
    if (!(error instanceof site.BackupError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
    return;
  }
  const { sha256, ...rows } = await site.contentFingerprint(database.db);
  console.log(
    `Restored ${file} (written ${backup.header.createdAt}): ${Object.entries(rows)
      .map(([table, n]) => `${table} ${n}`)
      .join(", ")}.`,
  );
  console.log(`Checksum of the restored rows (SHA-256): ${sha256}`);
  console.log("Set the owner's password with npm run owner:password (backups keep none).");
});

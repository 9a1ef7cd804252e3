// npm run backup [-- FILE]: writes one file holding the whole site (posts and their images,
// profile, experience, education, messages and their state: database/backup.server.ts), from
// the database the server uses (DATABASE_URL or DATA_DIR). On the embedded database, stop the
// server first (or set BACKUP_DIR and let it write one a day); PostgreSQL can be backed up live.
import path from "node:path";

import { site, withSiteDatabase } from "./site-database.mjs";

const file = path.resolve(process.argv[2] ?? site.backupFileName(new Date()));
await withSiteDatabase(async (database) => {
  let summary;
  try {
    summary = await site.writeBackup(database.db, file);
  } catch (error) {
    // A full disk, say: said in plain words, with nothing half-written left (exit code 1).
    if (!(error instanceof site.BackupError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
    return;
  }
  const rows = Object.entries(summary.rows)
    .map(([table, n]) => `${table} ${n}`)
    .join(", ");
  console.log(`Backup written to ${file} (${summary.bytes} bytes): ${rows}.`);
  // The same checksum npm run restore prints for the database it restores.
  const { sha256 } = await site.contentFingerprint(database.db);
  console.log(`Checksum of the rows (SHA-256): ${sha256}`);
});

// npm run backup [-- FILE]: writes one file holding the whole site (posts and their images,
// profile, experience, education, messages and their state: database/backup.server.ts), from
// the database the server uses (DATABASE_URL or DATA_DIR). On the embedded database, stop the
// server first (or set BACKUP_DIR and let it write one a day); PostgreSQL can be backed up live.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const {
  openDatabase,
  parseEnv,
  takeDataDirLock,
  releaseDataDirLock,
  writeBackup,
  backupFileName,
  contentFingerprint,
} = await import(path.join(root, "build/server/index.js"));

const env = parseEnv();
const file = path.resolve(process.argv[2] ?? backupFileName(new Date()));
const dataDir = path.resolve(root, env.dataDir);
if (!env.databaseUrl) takeDataDirLock(dataDir);
const database = await openDatabase({ databaseUrl: env.databaseUrl, dataDir });
try {
  const summary = await writeBackup(database.db, file);
  const rows = Object.entries(summary.rows)
    .map(([table, n]) => `${table} ${n}`)
    .join(", ");
  console.log(`Backup written to ${file} (${summary.bytes} bytes): ${rows}.`);
  // The same checksum npm run restore prints for the database it restores.
  console.log(`Checksum of the rows (SHA-256): ${(await contentFingerprint(database.db)).sha256}`);
} finally {
  await database.close();
  if (!env.databaseUrl) releaseDataDirLock(dataDir);
}

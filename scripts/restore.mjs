// npm run restore FILE: brings a new or emptied database (DATABASE_URL or DATA_DIR, as the
// server) back to exactly what FILE holds. The file is read and checked whole first: a damaged
// one is refused with a message and nothing is changed, and so is a database that already holds
// posts, images, experience, education or messages. Stop an embedded server first.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const {
  openDatabase,
  parseEnv,
  takeDataDirLock,
  releaseDataDirLock,
  readBackup,
  restoreBackup,
  contentFingerprint,
  BackupError,
} = await import(path.join(root, "build/server/index.js"));

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run restore FILE (a file written by npm run backup).");
  process.exit(1);
}

let backup;
try {
  backup = readBackup(path.resolve(file));
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`${error.message} Nothing was changed.`);
  process.exit(1);
}

const env = parseEnv();
const dataDir = path.resolve(root, env.dataDir);
if (!env.databaseUrl) takeDataDirLock(dataDir);
const database = await openDatabase({ databaseUrl: env.databaseUrl, dataDir });
try {
  await database.migrate(path.join(root, "database/migrations"));
  await restoreBackup(database.db, backup);
  const restored = await contentFingerprint(database.db);
  const { sha256, ...rows } = restored;
  console.log(
    `Restored ${file} (written ${backup.header.createdAt}): ${Object.entries(rows)
      .map(([table, n]) => `${table} ${n}`)
      .join(", ")}.`,
  );
  console.log(`Checksum of the restored rows (SHA-256): ${sha256}`);
  console.log("Set the owner's password with npm run owner:password (backups keep none).");
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await database.close();
  if (!env.databaseUrl) releaseDataDirLock(dataDir);
}

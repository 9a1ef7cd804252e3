// npm run owner:password [-- NEW_PASSWORD]: sets the owner's password (stored only as a hash)
// and signs every session out. Without an argument it generates one and prints it. Uses the
// same configuration as the server (DATABASE_URL or DATA_DIR); stop an embedded server first.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { openDatabase, parseEnv, setOwnerPassword, takeDataDirLock, releaseDataDirLock } =
  await import(path.join(root, "build/server/index.js"));

const env = parseEnv();
const chosen = process.argv[2];
if (chosen !== undefined && chosen.length < 8) {
  console.error("The password needs at least 8 characters.");
  process.exit(1);
}
const dataDir = path.resolve(root, env.dataDir);
if (!env.databaseUrl) takeDataDirLock(dataDir);
const database = await openDatabase({ databaseUrl: env.databaseUrl, dataDir });
try {
  await database.migrate(path.join(root, "database/migrations"));
  const password = chosen ?? (await import("node:crypto")).randomBytes(18).toString("base64url");
  await setOwnerPassword(database.db, password);
  console.log(
    chosen === undefined
      ? `New owner password (shown once): ${password}`
      : "The owner password is set. Every session was signed out.",
  );
  if (env.ownerPassword) {
    console.log("Note: OWNER_PASSWORD is set, and the server applies it again when it starts.");
  }
} finally {
  await database.close();
  if (!env.databaseUrl) releaseDataDirLock(dataDir);
}

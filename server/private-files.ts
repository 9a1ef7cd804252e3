import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/** Only the server's own user may list, read or write what it keeps. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` (created if missing) and everything under it private to this user: folders 0700,
 * files 0600. Run at every start for DATA_DIR and BACKUP_DIR: the database's files (the
 * write-ahead log holds the password hash and contact messages), those copied from the build's
 * template, and backups written by an older version are all brought in line. Symbolic links are
 * left as they are (their targets are not ours to change).
 */
export function makePrivate(dir: string) {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const walk = (at: string) => {
    const stat = lstatSync(at);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(at, PRIVATE_DIR_MODE);
      for (const name of readdirSync(at)) walk(path.join(at, name));
    } else if (stat.isFile() && (stat.mode & 0o777) !== PRIVATE_FILE_MODE) {
      chmodSync(at, PRIVATE_FILE_MODE);
    }
  };
  walk(dir);
}

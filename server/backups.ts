import { readdirSync, rmSync } from "node:fs";
import path from "node:path";

import { errorMessage, logEvent } from "../app/lib/log.server";
import { formatDuration, HOUR_MS } from "../app/lib/format";
import { BACKUP_FILE, backupFileName, writeBackup } from "../database/backup.server";
import type { Database } from "../database/db.server";
import { makePrivate } from "./private-files";

/** A backup is written when the newest in BACKUP_DIR is older than this. */
export const BACKUP_EVERY_MS = 24 * HOUR_MS;
/** How often the server looks whether one is due (and first, right after it starts). */
const CHECK_EVERY_MS = HOUR_MS;

/** When the backup named `file` was taken, from its name (backupFileName). */
function takenAt(file: string): number {
  const iso = file
    .slice("backup-".length, -".jsonl.gz".length)
    .replace(/T(\d{2})-(\d{2})-(\d{2})Z$/, "T$1:$2:$3Z");
  return Date.parse(iso);
}

/** The backups in `dir`, newest first. */
export function backupsIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => BACKUP_FILE.test(name))
    .sort()
    .reverse();
}

/**
 * Writes a backup into `dir` when the newest there is a day old (or there is none), then keeps
 * the newest `keep`. Returns the file written, or null when none was due.
 */
export async function backupIfDue(
  db: Database,
  dir: string,
  keep: number,
  now = new Date(),
): Promise<string | null> {
  makePrivate(dir);
  const newest = backupsIn(dir)[0];
  let written: string | null = null;
  if (!newest || now.getTime() - takenAt(newest) >= BACKUP_EVERY_MS) {
    written = path.join(dir, backupFileName(now));
    const summary = await writeBackup(db, written);
    logEvent("info", "backup-written", { file: written, bytes: summary.bytes, rows: summary.rows });
  }
  for (const old of backupsIn(dir).slice(keep)) rmSync(path.join(dir, old), { force: true });
  return written;
}

/**
 * BACKUP_DIR: checks at start and every hour; a failure (a full disk: database/backup.server.ts
 * leaves nothing half-written) is logged once, in plain words, and tried again at the next check.
 */
export function startBackupSchedule(db: Database, dir: string, keep: number) {
  let running: Promise<unknown> = Promise.resolve();
  const check = () => {
    running = backupIfDue(db, dir, keep).catch((error: unknown) =>
      logEvent("error", "backup-failed", {
        dir,
        error: errorMessage(error),
        retry: `at the next check, within ${formatDuration(CHECK_EVERY_MS)}`,
      }),
    );
  };
  check();
  const timer = setInterval(check, CHECK_EVERY_MS);
  timer.unref();
  return {
    /** Stops checking, after the backup being written (if any) is done. */
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const LOCK_FILE = "portfolio.pid";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Claims an embedded data directory for this process. Two processes writing one PGlite
 * directory would corrupt it, so a second server (or `npm run owner:password` while the server
 * runs) stops with a clear message instead. A lock left by a dead process is taken over.
 */
export function takeDataDirLock(dataDir: string) {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  let holder = NaN;
  try {
    holder = Number(readFileSync(file, "utf8").trim());
  } catch {
    // no lock yet
  }
  if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
    console.error(
      `The embedded database in ${dataDir} is in use by process ${holder}. Stop that process first.`,
    );
    process.exit(1);
  }
  writeFileSync(file, String(process.pid));
}

export function releaseDataDirLock(dataDir: string) {
  const file = path.join(dataDir, LOCK_FILE);
  try {
    if (Number(readFileSync(file, "utf8").trim()) === process.pid) rmSync(file);
  } catch {
    // already gone
  }
}

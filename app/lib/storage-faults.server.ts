/**
 * Storing an upload when the storage fails: the server's disk is full, the database cannot be
 * reached, or the embedded database stopped. The owner gets one of these plain answers (never a
 * 500 with a stack), and nothing is half-stored: the upload's rows are written in one
 * transaction, after their bytes' parts, so a failure leaves none of them, and parts no row
 * owns are removed (app/features/media/store.server.ts).
 *
 * What PGlite does on a full disk (measured on a small tmpfs, docs/decisions/033-storage-faults.md):
 * a table file that cannot grow fails the statement (53100), the transaction rolls back and the
 * database goes on; a write-ahead log segment that cannot be created is a PANIC, after which every
 * query fails until the process restarts with room on the disk. Before an upload is written to
 * the embedded database, the server therefore checks the data directory's free space
 * (`roomForUpload`) and refuses while it is short, so a full disk rarely gets that far.
 */
import { statfs } from "node:fs/promises";
import path from "node:path";

import type { Env } from "./env.server";
import { errorMessage, logEvent } from "./log.server";

export type StorageFault = "diskFull" | "databaseUnavailable" | "databaseStopped";

/** What the owner reads when an upload could not be stored. */
export const STORAGE_FAULT_TEXT = {
  diskFull: "The server's disk is full: the file was not stored. Free some space and try again.",
  databaseUnavailable:
    "The database could not be reached: the file was not stored. Try again in a moment.",
  databaseStopped:
    "The server's database stopped after a failed write (its disk is probably full): the file " +
    "was not stored. Free some space on the server's disk, then restart the server.",
} as const satisfies Record<StorageFault, string>;

/** The status of each: 507 Insufficient Storage, or 503 (the database is not there). */
export const STORAGE_FAULT_STATUS = {
  diskFull: 507,
  databaseUnavailable: 503,
  databaseStopped: 503,
} as const satisfies Record<StorageFault, number>;

/** PostgreSQL's size of a write-ahead log segment (PGlite's too). */
const WAL_SEGMENT_BYTES = 16 * 1024 ** 2;
/**
 * The free space the embedded database's disk must have before an upload is written to it: the
 * files go once into the write-ahead log and once into the table, and the log may need two new
 * segments on the way (one it cannot create stops the database, see above).
 */
export const UPLOAD_DISK_ROOM = {
  perFileByte: 2,
  spareBytes: 2 * WAL_SEGMENT_BYTES,
} as const;

/** Errors of the network or the server that mean the database is not there (Node, pg). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  // PostgreSQL: shutting down, crashed, starting, too many connections.
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);
/** What the pg driver and the site's own timeouts say when the connection is lost or silent. */
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error|not queryable|did not answer within/i;

type Failure = { code?: unknown; severity?: unknown; message?: unknown; cause?: unknown };

/** Which storage fault an error (or one of its causes) is, or null for any other error. */
export function storageFaultOf(error: unknown, embedded: boolean): StorageFault | null {
  let fault: StorageFault | null = null;
  for (let e = error as Failure | undefined, depth = 0; e && depth < 8; depth++) {
    if (typeof e !== "object") break;
    const code = typeof e.code === "string" ? e.code : "";
    const message = typeof e.message === "string" ? e.message : "";
    // PGlite after a PANIC answers every query with one, whatever it was.
    if (embedded && (e.severity === "PANIC" || /PGlite is closed/.test(message))) {
      return "databaseStopped";
    }
    if (code === "ENOSPC" || code === "EDQUOT" || code === "53100") fault = "diskFull";
    else if (!fault && (UNREACHABLE_CODES.has(code) || code.startsWith("08"))) {
      fault = "databaseUnavailable";
    } else if (!fault && UNREACHABLE_MESSAGES.test(message)) fault = "databaseUnavailable";
    e = e.cause as Failure | undefined;
  }
  return fault;
}

/**
 * Whether the embedded database's disk has room for files of `bytes` (always true on
 * PostgreSQL, whose disk this server cannot see, and when the directory cannot be measured).
 */
export async function roomForUpload(
  env: Pick<Env, "databaseUrl" | "dataDir">,
  bytes: number,
): Promise<boolean> {
  if (env.databaseUrl) return true;
  let free: number;
  try {
    const stats = await statfs(path.resolve(env.dataDir));
    free = stats.bavail * stats.bsize;
  } catch {
    return true;
  }
  return free >= bytes * UPLOAD_DISK_ROOM.perFileByte + UPLOAD_DISK_ROOM.spareBytes;
}

export type Stored<T> =
  { ok: true; value: T } | { ok: false; fault: StorageFault; status: number; message: string };

/**
 * Stores an upload of `bytes` with `store` (one transaction or statement): its value, or the
 * fault that kept it from being stored, logged. Any other error is thrown on.
 */
export async function storeUpload<T>(
  env: Pick<Env, "databaseUrl" | "dataDir">,
  files: { bytes: Uint8Array }[],
  store: () => Promise<T>,
): Promise<Stored<T>> {
  const bytes = files.reduce((total, file) => total + file.bytes.byteLength, 0);
  const refuse = (fault: StorageFault, error: string): Stored<T> => {
    logEvent("error", "upload-not-stored", { fault, bytes, error });
    return {
      ok: false,
      fault,
      status: STORAGE_FAULT_STATUS[fault],
      message: STORAGE_FAULT_TEXT[fault],
    };
  };
  if (!(await roomForUpload(env, bytes))) {
    return refuse("diskFull", "the data directory's disk has too little free space");
  }
  try {
    return { ok: true, value: await store() };
  } catch (error) {
    const fault = storageFaultOf(error, !env.databaseUrl);
    if (!fault) throw error;
    return refuse(fault, errorMessage(error));
  }
}

import { statfsSync } from "node:fs";

import type { PGlite } from "@electric-sql/pglite";

/**
 * The embedded database's write-ahead log, kept ready and bounded.
 *
 * PGlite runs PostgreSQL as a single user, without the checkpointer a server has: nothing
 * checkpoints until it closes, so `pg_wal` grows with every write (9 segments of 16 MB after
 * 120 MB written, measured), and each new segment is created, 16 MB of zeros, in the middle of
 * a write. On a full disk that creation fails inside a critical section: a PANIC, after which
 * PGlite never answers again (a `select 1` waited for ever, measured on PGlite 0.5.16). A table
 * that cannot grow, by contrast, fails its statement cleanly (53100) and the database goes on.
 *
 * So the log's next segments are made in advance, while there is room: at open, switching
 * segments until WAL_RESERVE.segments lie ahead of the current one, then a checkpoint turns the
 * used ones into future ones; and every WAL_RESERVE.lookEveryMs, once the log moved on by a
 * segment, a checkpoint recycles what was used (PostgreSQL renames old segments rather than
 * creating new ones, keeping min_wal_size, 80 MB, ahead). Writes on a disk that filled up then
 * go into segments that already exist: measured with 2 MB free and 2,775 failed inserts, every
 * one failed with 53100 and the database kept answering. A checkpoint itself needs a little
 * room (it writes small files, and failing to is a PANIC too), so none runs with less than
 * WAL_RESERVE.checkpointRoomBytes free; the reserve then carries the writes until there is room.
 */
export const WAL_RESERVE = {
  /** Segments kept ready beyond the one in use (16 MB each). */
  segments: 4,
  /** How often the keeper looks whether the log moved on. */
  lookEveryMs: 60_000,
  /** Free space a checkpoint needs before it may run. */
  checkpointRoomBytes: 16 * 1024 * 1024,
} as const;

const SEGMENT = /^[0-9A-F]{24}$/;

export type WalEvent = "wal-reserve-short" | "wal-checkpoint-skipped" | "wal-checkpoint-failed";
export type WalReport = (event: WalEvent, fields: Record<string, unknown>) => void;

type Position = { segment: string; ahead: number; segmentBytes: number };

async function position(client: PGlite): Promise<Position> {
  const { rows } = await client.query<{ segment: string; name: string | null; bytes: string }>(
    `select pg_walfile_name(pg_current_wal_lsn()) as segment, w.name,
            (select setting from pg_settings where name = 'wal_segment_size') as bytes
       from (select 1) one left join pg_ls_waldir() w on true`,
  );
  const segment = rows[0]!.segment;
  const ahead = rows.filter((r) => r.name && SEGMENT.test(r.name) && r.name > segment).length;
  return { segment, ahead, segmentBytes: Number(rows[0]!.bytes) };
}

const freeBytes = (dir: string) => {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
};

/** Makes the reserve when it is short and the disk has room for it; the segments ahead after. */
export async function ensureWalReserve(client: PGlite, dir: string, report?: WalReport) {
  const at = await position(client);
  const missing = WAL_RESERVE.segments - at.ahead;
  if (missing <= 0) return at.ahead;
  const free = freeBytes(dir);
  if (free < missing * at.segmentBytes + WAL_RESERVE.checkpointRoomBytes) {
    report?.("wal-reserve-short", { ahead: at.ahead, freeBytes: free });
    return at.ahead;
  }
  // A segment is left only once something was written in it: a transaction id is enough.
  for (let i = 0; i < missing; i++) {
    await client.query("select txid_current()");
    await client.query("select pg_switch_wal()");
  }
  await client.exec("checkpoint");
  return (await position(client)).ahead;
}

/**
 * Keeps the reserve while the database is open: returns the function that stops it. Looks are
 * skipped while a statement is running elsewhere (they queue behind it in PGlite anyway).
 */
export function keepWalReserve(client: PGlite, dir: string, report?: WalReport) {
  let checkpointedAt: string | null = null;
  let busy = false;
  let skipped = false;
  const look = async () => {
    if (busy || client.closed) return;
    busy = true;
    try {
      const at = await position(client);
      if (at.segment === checkpointedAt && at.ahead >= WAL_RESERVE.segments) return;
      const free = freeBytes(dir);
      if (free < WAL_RESERVE.checkpointRoomBytes) {
        if (!skipped) report?.("wal-checkpoint-skipped", { freeBytes: free, ahead: at.ahead });
        skipped = true;
        return;
      }
      skipped = false;
      await client.exec("checkpoint");
      checkpointedAt = at.segment;
      await ensureWalReserve(client, dir, report);
    } catch (error) {
      if (!client.closed) report?.("wal-checkpoint-failed", { error: String(error) });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void look(), WAL_RESERVE.lookEveryMs);
  timer.unref();
  return { look, stop: () => clearInterval(timer) };
}

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ensureWalReserve, keepWalReserve, WAL_RESERVE } from "../../database/pglite-wal";

/**
 * The embedded database's write-ahead log (database/pglite-wal.ts), on a real data directory:
 * its next segments are made at open, and the keeper's checkpoints recycle used segments, so the
 * log neither creates segments in the middle of writes nor grows without bound (without it,
 * 120 MB written left 9 segments of 16 MB).
 */
const MB = 1024 * 1024;
const SEGMENT = /^[0-9A-F]{24}$/;

describe("the embedded database's write-ahead log reserve", () => {
  let dir: string;
  let client: PGlite;
  const segments = () => readdirSync(path.join(dir, "pg_wal")).filter((f) => SEGMENT.test(f));
  /** Segments beyond the one in use. */
  const ahead = async () => {
    const { rows } = await client.query<{ current: string }>(
      "select pg_walfile_name(pg_current_wal_lsn()) as current",
    );
    return segments().filter((name) => name > rows[0]!.current).length;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-wal-"));
    client = await PGlite.create(dir);
    // Stored as written (no compression): each row puts its 64 KB in the log.
    await client.exec(
      "create table rows (id serial primary key, b bytea); " +
        "alter table rows alter column b set storage external",
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("makes the next segments ahead of the one in use, once", async () => {
    expect(segments()).toHaveLength(1);
    expect(await ensureWalReserve(client, dir)).toBe(WAL_RESERVE.segments);
    expect(segments()).toHaveLength(WAL_RESERVE.segments + 1);
    // Already there: nothing more is made.
    expect(await ensureWalReserve(client, dir)).toBe(WAL_RESERVE.segments);
    expect(segments()).toHaveLength(WAL_RESERVE.segments + 1);
  });

  it("keeps the log bounded while writes go on, the reserve ahead of them", async () => {
    const keeper = keepWalReserve(client, dir);
    try {
      let most = 0;
      for (let round = 0; round < 8; round++) {
        // 16 MB written and deleted: a segment's worth of log and more each round.
        await client.query(
          "insert into rows (b) select convert_to(repeat(md5(n::text), 2048), 'UTF8') " +
            "from generate_series(1, 256) n",
        );
        await client.exec("delete from rows");
        await keeper.look();
        most = Math.max(most, segments().length);
        expect(await ahead()).toBeGreaterThanOrEqual(WAL_RESERVE.segments);
      }
      console.log(`128 MB written: at most ${most} segments (${(most * 16 * MB) / MB} MB)`);
      expect(most).toBeLessThanOrEqual(WAL_RESERVE.segments + 4);
    } finally {
      keeper.stop();
    }
  }, 120_000);
});

/**
 * A stored file's bytes in parts (database/media-parts.server.ts): written a part per statement
 * before the file's row, read a part per statement, removed with the row or, left by a failed
 * upload, by the orphan purge; backups keep a file's bytes in its row, as before the parts.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { gunzipSync } from "node:zlib";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  purgeOrphanMedia,
  STAGED_PARTS_GRACE_HOURS,
} from "../../app/features/media/orphans.server";
import {
  readMedia,
  stageMedia,
  storeMedia,
  type StoredMedia,
} from "../../app/features/media/store.server";
import { ensureProfile, getProfile, uploadCv } from "../../app/features/profile/profile.server";
import { SEED_PROFILE } from "../../app/features/site/site.server";
import { readBackup, restoreBackup, writeBackup } from "../../database/backup.server";
import { openDatabase, PGLITE_EXTENSIONS } from "../../database/db.server";
import { MEDIA_PARTS_PER_READ } from "../../database/media-parts.server";
import { MEDIA_PART_BYTES } from "../../database/schema";
import { drivers, MIGRATIONS, queryRows, skipReason, type TestDatabase } from "./databases";

const MB = 1024 ** 2;
const dir = mkdtempSync(path.join(os.tmpdir(), "media-parts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cvOf = (bytes: Uint8Array) => [
  { contentType: "application/pdf" as const, bytes, width: null, height: null },
];

const partsOf = (database: TestDatabase, hash?: string) =>
  queryRows<{ hash: string; seq: number; length: number }>(
    database.db,
    hash === undefined
      ? sql`select hash, seq, length(bytes) as length from media_parts order by hash, seq`
      : sql`select hash, seq, length(bytes) as length from media_parts where hash = ${hash}
          order by seq`,
  );

/** A backup the site wrote before the parts (i32's code): two CVs, one of three parts' size. */
const OLD_BACKUP = path.resolve(
  import.meta.dirname,
  "../fixtures/backup-before-media-parts.jsonl.gz",
);
/** The bytes of the fixture's larger file, as the script that made it wrote them. */
const oldBackupFile = () => {
  const bytes = Buffer.alloc(150 * 1024);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 251;
  return bytes;
};

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`media parts on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("stores a file of over 1 MB as parts of MEDIA_PART_BYTES and reads it back whole", async () => {
      const bytes = randomBytes(MB + 12_345);
      const [stored] = await storeMedia(database.db, "cv", cvOf(bytes));
      const parts = await partsOf(database, stored!.hash);
      const count = Math.ceil(bytes.length / MEDIA_PART_BYTES);
      expect(count).toBeGreaterThan(16);
      expect(parts.map((p) => p.seq)).toEqual([...Array(count).keys()]);
      expect(parts.slice(0, -1).every((p) => p.length === MEDIA_PART_BYTES)).toBe(true);
      expect(parts.at(-1)!.length).toBe(bytes.length - (count - 1) * MEDIA_PART_BYTES);

      const read = await readMedia(database.db, stored!.hash);
      expect(read?.size).toBe(bytes.length);
      expect(Buffer.from(read!.bytes).equals(bytes)).toBe(true);
      expect(createHash("sha256").update(read!.bytes).digest("hex")).toBe(stored!.hash);
      // Stored again: nothing new, one row, the same parts.
      await storeMedia(database.db, "cv", cvOf(bytes));
      expect(await partsOf(database)).toHaveLength(count);
    });

    it("never serves a file cut short: a missing part is an error", async () => {
      const [stored] = await storeMedia(database.db, "cv", cvOf(randomBytes(3 * MEDIA_PART_BYTES)));
      await database.db.execute(
        sql`delete from media_parts where hash = ${stored!.hash} and seq = 1`,
      );
      await expect(readMedia(database.db, stored!.hash)).rejects.toThrow(/lacks parts from 1/);
    });

    it("leaves no parts when the file's row cannot be written", async () => {
      await database.db.execute(sql`create function refuse_media() returns trigger
        language plpgsql as $$ begin raise exception 'no room for rows'; end $$`);
      await database.db.execute(sql`create trigger refuse_media before insert on media
        for each row execute function refuse_media()`);
      await expect(storeMedia(database.db, "cv", cvOf(randomBytes(MB)))).rejects.toThrow();
      expect(await partsOf(database)).toEqual([]);

      // The same through the profile: neither the CV, nor its parts, nor the profile's change.
      await ensureProfile(database.db, SEED_PROFILE);
      await expect(uploadCv(database.db, cvOf(randomBytes(MB)))).rejects.toThrow();
      expect(await partsOf(database)).toEqual([]);
      expect((await getProfile(database.db))?.cv).toBeNull();
    });

    it(`purges parts no row owns once they are ${STAGED_PARTS_GRACE_HOURS} h old, and only those`, async () => {
      const [kept] = await storeMedia(database.db, "cv", cvOf(randomBytes(2 * MEDIA_PART_BYTES)));
      // An upload that wrote its parts and then lost its process: no row, no clean-up.
      const staged = await stageMedia(database.db, cvOf(randomBytes(3 * MEDIA_PART_BYTES)));
      const stray = staged.files[0]!.hash;
      expect(await partsOf(database, stray)).toHaveLength(3);

      expect(await purgeOrphanMedia(database.db)).toMatchObject({ strayParts: 0 });
      expect(await partsOf(database, stray)).toHaveLength(3);

      // The clock moved past the grace (for every part, the stored file's too).
      await database.db.execute(sql`update media_parts
        set created_at = created_at - make_interval(hours => ${STAGED_PARTS_GRACE_HOURS}, mins => 1)`);
      expect(await purgeOrphanMedia(database.db)).toMatchObject({ strayParts: 3 });
      expect(await partsOf(database, stray)).toEqual([]);
      expect(await partsOf(database, kept!.hash)).toHaveLength(2);
      expect((await readMedia(database.db, kept!.hash))?.bytes.byteLength).toBe(
        2 * MEDIA_PART_BYTES,
      );
    });

    it("deletes a file's parts with its row", async () => {
      const [gone, stays] = await Promise.all([
        storeMedia(database.db, "cv", cvOf(randomBytes(MEDIA_PART_BYTES + 1))),
        storeMedia(database.db, "cv", cvOf(randomBytes(MEDIA_PART_BYTES + 2))),
      ]).then((all) => all.map(([file]) => file as StoredMedia));
      await database.db.execute(sql`delete from media where hash = ${gone!.hash}`);
      expect(await partsOf(database, gone!.hash)).toEqual([]);
      expect(await partsOf(database, stays!.hash)).toHaveLength(2);
    });

    it("starts an old orphan's grace again when its bytes are uploaded again", async () => {
      const bytes = randomBytes(1000);
      const [stored] = await storeMedia(database.db, "cv", cvOf(bytes));
      await database.db.execute(sql`update media
        set unreferenced_since = now() - make_interval(hours => 23) where hash = ${stored!.hash}`);
      await storeMedia(database.db, "cv", cvOf(bytes));
      const [row] = await queryRows<{ fresh: boolean }>(
        database.db,
        sql`select unreferenced_since > now() - make_interval(mins => 1) as fresh
          from media where hash = ${stored!.hash}`,
      );
      expect(row?.fresh).toBe(true);
    });

    it("restores a backup written before the parts, and writes its files back the same way", async () => {
      const backup = readBackup(OLD_BACKUP);
      expect(backup.header.migrations).toBe(12);
      expect(backup.counts.media).toBe(2);
      await restoreBackup(database.db, backup);

      const big = oldBackupFile();
      const hash = createHash("sha256").update(big).digest("hex");
      expect(await partsOf(database, hash)).toHaveLength(3);
      expect(Buffer.from((await readMedia(database.db, hash))!.bytes).equals(big)).toBe(true);

      // Written again after the parts: the same lines (the header aside) as the site wrote then.
      const again = path.join(dir, `${driver.name}-again.jsonl.gz`);
      await writeBackup(database.db, again);
      type Line = { table?: string; row?: Record<string, unknown> };
      const body = (file: string) =>
        gunzipSync(readFileSync(file))
          .toString("utf8")
          .trimEnd()
          .split("\n")
          .slice(1, -1)
          .map((line) => JSON.parse(line) as Line);
      const before = body(OLD_BACKUP);
      // Columns added since (a post's share card, its newsletter choice) are left out: the old
      // backup could not hold them.
      const after = body(again).map((line, i) => {
        const old = before[i]?.row;
        if (!line.row || !old) return line;
        return {
          ...line,
          row: Object.fromEntries(Object.entries(line.row).filter(([k]) => k in old)),
        };
      });
      expect(after).toEqual(before);
    });

    it("refuses a backup whose file lacks its bytes, changing nothing", async () => {
      const backup = readBackup(OLD_BACKUP);
      const rows = backup.rows.map((entry) =>
        entry.table === "media"
          ? { ...entry, row: { ...entry.row, bytes: String(entry.row.bytes).slice(0, -2) } }
          : entry,
      );
      await expect(restoreBackup(database.db, { ...backup, rows })).rejects.toThrow(
        /is damaged: the file [0-9a-f]{64} does not have its \d+ bytes/,
      );
      expect(await partsOf(database)).toEqual([]);
    });
  });
}

describe("a 10 MB file on the embedded database", () => {
  /** A migrated PGlite whose protocol calls (one per statement, or less) are timed. */
  async function timedPglite() {
    const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const times: number[] = [];
    const raw = client.execProtocolRaw.bind(client);
    client.execProtocolRaw = (async (...args: Parameters<typeof raw>) => {
      const started = performance.now();
      try {
        return await raw(...args);
      } finally {
        times.push(performance.now() - started);
      }
    }) as typeof raw;
    const handle = await openDatabase({ dataDir: "", pglite: client });
    await handle.migrate(MIGRATIONS);
    /**
     * Runs `work`: its wall time, its statements, the longest of them, and the longest the
     * event loop waited meanwhile (what a request arriving then would wait at least).
     */
    const measure = async (work: () => Promise<unknown>) => {
      times.length = 0;
      let last = performance.now();
      let stall = 0;
      const tick = setInterval(() => {
        const now = performance.now();
        stall = Math.max(stall, now - last);
        last = now;
      }, 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      stall = 0;
      const started = performance.now();
      await work();
      const ms = performance.now() - started;
      // A loop held to the end records its wait at the next turn.
      await new Promise((resolve) => setTimeout(resolve, 5));
      clearInterval(tick);
      return { ms, statements: times.length, longest: Math.max(...times), stall };
    };
    return { handle, measure };
  }

  it("lets other queries run between its parts while it is stored and read", async () => {
    const { handle } = await timedPglite();
    try {
      const bytes = randomBytes(10 * MB);
      const hash = createHash("sha256").update(bytes).digest("hex");
      const order: string[] = [];
      const stored = storeMedia(handle.db, "cv", cvOf(bytes)).then(() => order.push("stored"));
      // The health check's ping, asked just after the upload began.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await handle.ping().then(() => order.push("ping"));
      await stored;
      const read = readMedia(handle.db, hash).then(() => order.push("read"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await handle.ping().then(() => order.push("ping"));
      await read;
      expect(order).toEqual(["ping", "stored", "ping", "read"]);
    } finally {
      await handle.close();
    }
  }, 120_000);

  it("measures the longest statement: parts against one statement for the whole file", async () => {
    const { handle, measure } = await timedPglite();
    try {
      const bytes = randomBytes(10 * MB);
      const hash = createHash("sha256").update(bytes).digest("hex");
      await handle.db.execute(sql`create table whole_files (hash text primary key, bytes bytea)`);
      const rows = [
        ["parts: store", await measure(() => storeMedia(handle.db, "cv", cvOf(bytes)))],
        ["parts: read", await measure(() => readMedia(handle.db, hash))],
        [
          "one statement: store",
          await measure(() =>
            handle.db.execute(sql`insert into whole_files values (${hash}, ${bytes})`),
          ),
        ],
        [
          "one statement: read",
          await measure(() =>
            handle.db.execute(sql`select bytes from whole_files where hash = ${hash}`),
          ),
        ],
      ] as const;
      const fmt = (ms: number) => ms.toFixed(1);
      console.log(
        [
          `10 MB on PGlite, parts of ${MEDIA_PART_BYTES / 1024} KB, ${MEDIA_PARTS_PER_READ} per read:`,
          "| how | total ms | statements | longest statement ms | longest event-loop stall ms |",
          "| --- | ---: | ---: | ---: | ---: |",
          ...rows.map(
            ([name, m]) =>
              `| ${name} | ${fmt(m.ms)} | ${m.statements} | ${fmt(m.longest)} | ${fmt(m.stall)} |`,
          ),
        ].join("\n"),
      );
      const [, partsStore] = rows[0];
      const [, wholeStore] = rows[2];
      // What the parts are for (no bound on time: only that each statement covers less).
      expect(partsStore.statements).toBeGreaterThan((10 * MB) / MEDIA_PART_BYTES);
      expect(wholeStore.statements).toBeLessThan(10);
    } finally {
      await handle.close();
    }
  }, 180_000);
});

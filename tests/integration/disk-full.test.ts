// A full disk, for real (a small tmpfs): a backup that does not fit leaves no partial file, keeps
// the older backups, is logged once in plain words and is written at the next check once there
// is room; an upload into the embedded database on a full disk stores nothing and leaves the
// profile as it was, whichever way PGlite fails (docs/decisions/033-storage-faults.md).
import { randomBytes } from "node:crypto";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

import { storeMedia } from "../../app/features/media/store.server";
import { SEED_PROFILE } from "../../app/features/site/site.server";
import { ensureProfile, getProfile, uploadCv } from "../../app/features/profile/profile.server";
import { HOUR_MS } from "../../app/lib/format";
import {
  STORAGE_FAULT_STATUS,
  STORAGE_FAULT_TEXT,
  storageFaultOf,
  storeUpload,
} from "../../app/lib/storage-faults.server";
import { BackupError, readBackup } from "../../database/backup.server";
import { openDatabase, type DatabaseHandle } from "../../database/db.server";
import { backupIfDue, backupsIn, startBackupSchedule } from "../../server/backups";
import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from "../tmpfs";
import { drivers, MIGRATIONS, queryRows, skipReason } from "./databases";

const KB = 1024;
const MB = 1024 * KB;

/** A CV as processCv passes it on: a 10 MB PDF of bytes that do not compress. */
const cvFiles = () => [
  {
    contentType: "application/pdf" as const,
    bytes: Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(10 * MB)]),
    width: null,
    height: null,
  },
];

const mounts: Tmpfs[] = [];
afterAll(() => {
  for (const mount of mounts) mount.unmount();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Fills `mount` until `left` bytes are free. */
function fill(mount: Tmpfs, left: number) {
  const filler = path.join(mount.dir, "filler");
  writeFileSync(filler, Buffer.alloc(Math.max(0, mount.free() - left)));
  return () => rmSync(filler);
}

const runnable = drivers.filter((d) => skipReason(d) === null);

if (tmpfsUnavailable("the disk-full tests") === null) {
  describe.each(runnable.map((d) => [d.name, d] as const))(
    "a backup on a full disk (%s)",
    (_, driver) => {
      it("leaves no partial file, keeps the older backups, says why once, and is written at the next check", async () => {
        const database = await driver.fresh();
        const mount = mountTmpfs(2 * MB);
        mounts.push(mount);
        try {
          // 300 KB of media that does not compress: a backup needs about as much room.
          await storeMedia(database.db, "cv", [
            {
              contentType: "application/pdf",
              bytes: randomBytes(300 * KB),
              width: null,
              height: null,
            },
          ]);
          const dayBefore = new Date(Date.now() - 25 * HOUR_MS);
          const older = await backupIfDue(database.db, mount.dir, 5, dayBefore);
          expect(older).not.toBeNull();
          const free = fill(mount, 64 * KB);

          const failed = await backupIfDue(database.db, mount.dir, 5).catch((e: unknown) => e);
          expect(failed).toBeInstanceOf(BackupError);
          expect((failed as Error).message).toMatch(
            /^The backup was not written to .+: the disk is full \(it needed \d+ bytes\)\. Nothing of it was left behind; older backups are unchanged\.$/,
          );
          expect(readdirSync(mount.dir).sort()).toEqual([path.basename(older!), "filler"]);
          expect(readBackup(older!).counts.media).toBe(1);

          // The schedule: one plain line per failed check, then the next check writes it.
          const errors = vi.spyOn(console, "error").mockImplementation(() => {});
          vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
          const schedule = startBackupSchedule(database.db, mount.dir, 5);
          await vi.waitFor(() => expect(errors).toHaveBeenCalledTimes(1));
          const line = JSON.parse(String(errors.mock.calls[0]![0])) as Record<string, string>;
          expect(line).toMatchObject({ level: "error", event: "backup-failed", dir: mount.dir });
          expect(line.error).toContain("the disk is full");
          expect(line.retry).toBe("at the next check, within an hour");
          expect(backupsIn(mount.dir)).toEqual([path.basename(older!)]);

          free();
          vi.advanceTimersByTime(HOUR_MS);
          await schedule.stop();
          expect(errors).toHaveBeenCalledTimes(1);
          const now = backupsIn(mount.dir);
          expect(now).toHaveLength(2);
          expect(now[1]).toBe(path.basename(older!));
          expect(readBackup(path.join(mount.dir, now[0]!)).counts.media).toBe(1);
          expect(readdirSync(mount.dir).filter((f) => f.endsWith(".partial"))).toEqual([]);
        } finally {
          await database.dispose();
        }
      }, 60_000);
    },
  );

  describe("an upload into the embedded database on a full disk", () => {
    /** A migrated PGlite on a tmpfs of its own, with the seed's profile and `room` bytes free. */
    async function embeddedOnTmpfs(room: number) {
      const mount = mountTmpfs(256 * MB);
      mounts.push(mount);
      const dataDir = path.join(mount.dir, "data");
      const open = () => openDatabase({ dataDir });
      let database: DatabaseHandle = await open();
      await database.migrate(MIGRATIONS, (db) => ensureProfile(db, SEED_PROFILE).then(() => {}));
      const used = 256 * MB - mount.free();
      mount.resize(used + room);
      return {
        mount,
        dataDir,
        get database() {
          return database;
        },
        reopen: async () => {
          await database.close().catch(() => {});
          database = await open();
        },
      };
    }

    const mediaRows = async (database: DatabaseHandle) =>
      (await queryRows<{ n: number }>(database.db, "select count(*)::int as n from media"))[0]!.n;

    it("is refused before anything is written when the disk is short of room (507)", async () => {
      const site = await embeddedOnTmpfs(20 * MB);
      try {
        const env = { databaseUrl: undefined, dataDir: site.dataDir };
        const before = site.mount.free();
        const errors = vi.spyOn(console, "error").mockImplementation(() => {});
        const files = cvFiles();
        const stored = await storeUpload(env, files, () => uploadCv(site.database.db, files));
        expect(stored).toEqual({
          ok: false,
          fault: "diskFull",
          status: 507,
          message: STORAGE_FAULT_TEXT.diskFull,
        });
        expect(errors).toHaveBeenCalledTimes(1);
        expect(String(errors.mock.calls[0]![0])).toContain('"event":"upload-not-stored"');
        expect(await mediaRows(site.database)).toBe(0);
        expect((await getProfile(site.database.db))?.cv).toBeNull();
        expect(site.mount.free()).toBeGreaterThan(before - MB);
      } finally {
        await site.database.close();
      }
    }, 120_000);

    // A table that cannot grow gives a clean error (here, with 2 MB free); the write-ahead log
    // is made in advance so that it need not grow mid-write (database/pglite-wal.ts, and
    // tests/load/disk-full.test.ts for writes that meet a disk filling up).
    it("fails cleanly when the table cannot grow: nothing stored, the database goes on", async () => {
      const site = await embeddedOnTmpfs(2 * MB);
      try {
        const error = await uploadCv(site.database.db, cvFiles()).catch((e: unknown) => e);
        expect(storageFaultOf(error, true), String(error)).toBe("diskFull");
        expect(STORAGE_FAULT_STATUS.diskFull).toBe(507);
        expect(await mediaRows(site.database)).toBe(0);
        expect((await getProfile(site.database.db))?.cv).toBeNull();
        await site.database.ping();

        site.mount.resize(256 * MB);
        await uploadCv(site.database.db, cvFiles());
        expect(await mediaRows(site.database)).toBe(1);
        expect((await getProfile(site.database.db))?.cv?.size).toBe(10 * MB + 9);
      } finally {
        await site.database.close();
      }
    }, 120_000);
  });
}

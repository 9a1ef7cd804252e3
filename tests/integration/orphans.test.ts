import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  MEDIA_JOBS,
  ORPHAN_PURGE_EVERY_MS,
  ORPHAN_GRACE_HOURS,
  purgeOrphanMedia,
} from "../../app/features/media/orphans.server";
import { storeMedia, type StoredMedia } from "../../app/features/media/store.server";
import { postImageOf, type UploadKind } from "../../app/features/media/uploads";
import { autosavePost } from "../../app/features/posts/autosave.server";
import { deleteForever, trashPost } from "../../app/features/posts/trash.server";
import { createPost, updatePost, type PostWriteInput } from "../../app/features/posts/write.server";
import { ensureProfile, replacePhoto } from "../../app/features/profile/profile.server";
import { SEED_PROFILE } from "../../app/features/site/site.server";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "../../app/lib/format";
import { readBackup, writeBackup } from "../../database/backup.server";
import { openDatabase, type DatabaseHandle } from "../../database/db.server";
import { SITE_JOBS, startJobWorker } from "../../server/jobs";
import { startMediaFiles } from "../../server/media";
import {
  drivers,
  freshPostgresUrl,
  MIGRATIONS,
  queryRows,
  skipReason,
  type Driver,
  type TestDatabase,
} from "./databases";

const NO_SOURCE = { device: null, session: null, agent: null };
const dir = mkdtempSync(path.join(os.tmpdir(), "orphans-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An upload as the pipeline leaves it: WebP widths, then a JPEG fallback (bytes made up). */
const upload = (db: TestDatabase["db"], purpose: UploadKind = "image") =>
  storeMedia(db, purpose, [
    { contentType: "image/webp", bytes: randomBytes(300), width: 480, height: 320 },
    { contentType: "image/webp", bytes: randomBytes(600), width: 960, height: 640 },
    { contentType: "image/jpeg", bytes: randomBytes(900), width: 960, height: 640 },
  ]);

/** Text around the images: long enough that a revision stores an edit of it as a delta. */
const WORDS = `<p>${"Some words about queues and databases. ".repeat(100)}</p>`;
const TEXT = `${WORDS}${WORDS}`;
/** The image as a post holds it: every width named once, in `src` or `srcset`. */
const html = (files: StoredMedia[]) => {
  const image = postImageOf(files as Parameters<typeof postImageOf>[0]);
  return `${WORDS}<img src="${image.src}" srcset="${image.srcset}" alt="x">${WORDS}`;
};

const post = (content: string, publish: PostWriteInput["publish"] = { mode: "now" }) => ({
  title: "A post",
  description: "",
  content,
  slug: null,
  tags: [],
  publish,
});

/** The same database twice, as two instances see it (PGlite has one process: the same handle). */
async function twoInstances(driver: Driver) {
  if (driver.name === "pglite") {
    const one = await driver.fresh();
    return { a: one as DatabaseHandle, b: one as DatabaseHandle, dispose: () => one.dispose() };
  }
  const { url, drop } = await freshPostgresUrl();
  const a = await openDatabase({ databaseUrl: url, dataDir: "" });
  await a.migrate(MIGRATIONS);
  const b = await openDatabase({ databaseUrl: url, dataDir: "" });
  return {
    a,
    b,
    dispose: async () => {
      await Promise.all([a.close(), b.close()]);
      await drop();
    },
  };
}

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the orphan purge on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await database.dispose();
    });

    /** Moves the database's clock `ms` ahead, as the purge sees it: every file's times go back. */
    const moveClock = (ms: number) =>
      database.db.execute(sql`update media set
        created_at = created_at - make_interval(secs => ${ms / SECOND_MS}),
        unreferenced_since = unreferenced_since - make_interval(secs => ${ms / SECOND_MS})`);
    const stored = async () =>
      new Set(
        (await queryRows<{ hash: string }>(database.db, sql`select hash from media`)).map(
          (r) => r.hash,
        ),
      );
    const kept = async (files: StoredMedia[]) => {
      const left = await stored();
      return files.every((f) => left.has(f.hash));
    };
    const gone = async (files: StoredMedia[]) => {
      const left = await stored();
      return files.every((f) => !left.has(f.hash));
    };
    // The files as visitors get them: one instance's handler at the listener, which keeps local
    // copies; a deleted row's notice drops them.
    let files: Awaited<ReturnType<typeof startMediaFiles>> | null = null;
    let server: Server | null = null;
    const get = async (file: StoredMedia) => {
      if (!files) {
        const started = await startMediaFiles({
          database,
          dataDir: mkdtempSync(path.join(dir, "data-")),
          maxBytes: 1 << 20,
          security: { https: false, development: false },
        });
        files = started;
        server = createServer((req, res) => {
          if (!started.handle(req, res)) res.writeHead(418).end();
        });
        await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      }
      const { port } = server!.address() as AddressInfo;
      const name = `${file.hash}.${file.contentType === "image/jpeg" ? "jpg" : "webp"}`;
      const answer = await fetch(`http://127.0.0.1:${port}/media/${name}`);
      await answer.arrayBuffer();
      return answer;
    };
    afterEach(async () => {
      if (server) await new Promise((resolve) => server!.close(resolve));
      await files?.close();
      files = null;
      server = null;
    });
    const backupHashes = async (name: string) => {
      const file = path.join(dir, `${driver.name}-${name}.jsonl.gz`);
      await writeBackup(database.db, file);
      return new Set(
        readBackup(file)
          .rows.filter((r) => r.table === "media")
          .map((r) => r.row.hash as string),
      );
    };

    it(`keeps every width of images in use anywhere, and deletes an upload never used after ${ORPHAN_GRACE_HOURS} h`, async () => {
      const db = database.db;
      const published = await upload(db);
      await createPost(db, post(html(published)));
      const draft = await upload(db);
      await createPost(db, post(html(draft), { mode: "draft" }));
      const trashed = await upload(db);
      await trashPost(db, (await createPost(db, post(html(trashed)))).id);
      // Only in a revision: saved into the post, then saved out of it again.
      const older = await upload(db);
      const edited = await createPost(db, post(TEXT));
      await updatePost(db, edited.id, post(html(older)));
      await updatePost(db, edited.id, post(TEXT));
      // Only in an autosave of a published post, not applied to it (Update Post not pressed).
      const autosaved = await upload(db);
      const live = await createPost(db, post(TEXT));
      await autosavePost(
        db,
        live.id,
        {
          baseRevision: live.revision,
          title: "A post",
          description: "",
          content: html(autosaved),
          slug: "",
          tags: "",
          publish: { mode: "keep" },
        },
        NO_SOURCE,
      );
      // That autosave holds the image in its delta, not in a base.
      const [pending] = await queryRows<{ delta: string }>(
        db,
        sql`select delta::text as delta from post_revisions where post_id = ${live.id} and not applied`,
      );
      expect(pending?.delta).toContain(autosaved[0]!.hash);
      // The profile's photo, and a photo upload the profile never took (a failed save).
      await ensureProfile(db, SEED_PROFILE);
      const photo = await upload(db, "photo");
      await replacePhoto(db, {
        files: photo.map((f) => ({
          hash: f.hash,
          type: f.contentType as "image/webp",
          width: f.width!,
          height: f.height!,
        })),
      });
      const leftover = await upload(db, "photo");
      const never = await upload(db);
      const used = [published, draft, trashed, older, autosaved, photo];

      const first = await purgeOrphanMedia(db);
      expect(first).toMatchObject({ files: 24, used: 18, cleared: 18, marked: 0, deleted: 0 });
      expect(first.waiting).toBe(6);
      await moveClock((ORPHAN_GRACE_HOURS - 1) * HOUR_MS);
      expect(await purgeOrphanMedia(db)).toMatchObject({ deleted: 0, waiting: 6 });
      expect(await kept([...used, never, leftover].flat())).toBe(true);

      await moveClock(HOUR_MS + MINUTE_MS);
      const last = await purgeOrphanMedia(db);
      expect(last).toMatchObject({ files: 18, used: 18, deleted: 6, waiting: 0 });
      expect(last.freedBytes).toBe(2 * (300 + 600 + 900));
      expect(last.nextDeletionAt).toBeNull();
      expect(await gone([...never, ...leftover])).toBe(true);
      expect(await kept(used.flat())).toBe(true);
      expect(await purgeOrphanMedia(db)).toMatchObject({ deleted: 0, marked: 0, cleared: 0 });
    });

    it(`deletes an image ${ORPHAN_GRACE_HOURS} h after the purge first saw it unused, 404 and out of new backups`, async () => {
      const db = database.db;
      const removed = await upload(db);
      const reused = await upload(db);
      const a = await createPost(db, post(html(removed)));
      const b = await createPost(db, post(html(reused)));
      // Uploaded long ago, used ever since.
      await moveClock(10 * 24 * HOUR_MS);
      expect(await purgeOrphanMedia(db)).toMatchObject({ cleared: 6, waiting: 0 });
      for (const { id } of [a, b]) {
        await trashPost(db, id);
        await deleteForever(db, id);
      }
      expect(await purgeOrphanMedia(db)).toMatchObject({ marked: 6, deleted: 0, waiting: 6 });

      // Half-way through, one of them is put into a post again: its mark goes.
      await moveClock(12 * HOUR_MS);
      await createPost(db, post(html(reused)));
      expect(await purgeOrphanMedia(db)).toMatchObject({ cleared: 3, deleted: 0, waiting: 3 });
      await moveClock((ORPHAN_GRACE_HOURS - 13) * HOUR_MS);
      expect(await purgeOrphanMedia(db)).toMatchObject({ deleted: 0, waiting: 3 });
      expect((await get(removed[0]!)).status).toBe(200);
      const before = await backupHashes("before");
      expect(removed.every((f) => before.has(f.hash))).toBe(true);

      await moveClock(HOUR_MS + MINUTE_MS);
      expect(await purgeOrphanMedia(db)).toMatchObject({ deleted: 3, waiting: 0 });
      expect(await gone(removed)).toBe(true);
      expect(await kept(reused)).toBe(true);
      // Its copy on this instance goes on the row's notice.
      for (const file of removed) await expect.poll(async () => (await get(file)).status).toBe(404);
      expect((await get(reused[2]!)).status).toBe(200);
      const after = await backupHashes("after");
      expect(removed.some((f) => after.has(f.hash))).toBe(false);
      expect(reused.every((f) => after.has(f.hash))).toBe(true);
    });

    it("re-checks the references when it deletes: a file saved into a post since the look stays", async () => {
      const db = database.db;
      const late = await upload(db);
      await moveClock((ORPHAN_GRACE_HOURS + 1) * HOUR_MS);
      // The look found it unused; then a save used it, just before the delete statement ran.
      const execute = db.execute.bind(db);
      const textOf = (query: unknown) =>
        (
          db as unknown as { dialect: { sqlToQuery(q: unknown): { sql: string } } }
        ).dialect.sqlToQuery(query).sql;
      let saved = false;
      const saveFirst = async (query: Parameters<typeof db.execute>[0]) => {
        if (!saved && textOf(query).includes("delete from media")) {
          saved = true;
          await createPost(db, post(html(late)));
        }
        return execute(query);
      };
      const spy = vi
        .spyOn(db, "execute")
        .mockImplementation(saveFirst as unknown as typeof db.execute);
      expect(await purgeOrphanMedia(db)).toMatchObject({ deleted: 0 });
      spy.mockRestore();
      expect(saved).toBe(true);
      expect(await kept(late)).toBe(true);
      expect(await purgeOrphanMedia(db)).toMatchObject({ cleared: 3, deleted: 0, waiting: 0 });
    });
  });

  describe.skipIf(skipReason(driver) !== null)(`the orphan job on ${driver.name}`, () => {
    it("runs once with two instances' workers on one database, and logs what it did", async () => {
      const logged: string[] = [];
      vi.spyOn(console, "log").mockImplementation((line: string) => logged.push(line));
      const { a, b, dispose } = await twoInstances(driver);
      try {
        const orphan = await upload(a.db);
        await a.db.execute(sql`update media set
          created_at = created_at - make_interval(hours => ${ORPHAN_GRACE_HOURS + 1}),
          unreferenced_since = unreferenced_since - make_interval(hours => ${ORPHAN_GRACE_HOURS + 1})`);
        const workers = [startJobWorker(a.db, SITE_JOBS), startJobWorker(b.db, MEDIA_JOBS)];
        await Promise.all(workers.map((w) => w.settled()));
        await Promise.all(workers.map((w) => w.stop()));

        const runs = logged
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((e) => e.event === "job-done" && e.kind === "media.purge-orphans");
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({
          graceHours: ORPHAN_GRACE_HOURS,
          deleted: 3,
          freedBytes: 1800,
          files: 0,
        });
        expect(await queryRows(a.db, sql`select hash from media`)).toEqual([]);
        expect(orphan).toHaveLength(3);
        // Due again one period on.
        const [job] = await queryRows<{ ms: number | string }>(
          a.db,
          sql`select extract(epoch from run_at - now()) * 1000 as ms from jobs where key = 'media.purge-orphans'`,
        );
        expect(Number(job!.ms)).toBeGreaterThan(ORPHAN_PURGE_EVERY_MS - MINUTE_MS);
        expect(Number(job!.ms)).toBeLessThanOrEqual(ORPHAN_PURGE_EVERY_MS);
      } finally {
        vi.restoreAllMocks();
        await dispose();
      }
    });
  });
}

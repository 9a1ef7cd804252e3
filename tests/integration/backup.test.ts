// Backups (database/backup.server.ts): everything kept, restored exactly into a new database of
// either kind, a PGlite backup moved into PostgreSQL and back, damaged files refused unchanged.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  BackupError,
  contentFingerprint,
  readBackup,
  restoreBackup,
  writeBackup,
} from "../../database/backup.server";
import { autosavePost } from "../../app/features/posts/autosave.server";
import { trashPost } from "../../app/features/posts/trash.server";
import { createPost, updatePost } from "../../app/features/posts/write.server";
import { listEntries } from "../../app/features/profile/timeline/timeline.server";
import { backupIfDue, backupsIn } from "../../server/backups";
import { drivers, skipReason, type TestDatabase } from "./databases";

const dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-backup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A site with some of everything: posts (accents, code, an image), media bytes, messages in each state. */
async function fill(database: TestDatabase) {
  const { db } = database;
  await db.execute(sql`insert into profile (id, name, title, location, email, about, socials, skills, tools, photo)
    values (true, 'Aoife Ní Bhriain', 'Backend Developer', 'Dublin', 'aoife@example.com',
            '["Línea uno"]'::jsonb, '[]'::jsonb, '["Go","SQL"]'::jsonb, '[]'::jsonb, '{"sizes":[]}'::jsonb)
    on conflict (id) do update set name = excluded.name, photo = excluded.photo`);
  await db.execute(sql`insert into media_parts (hash, seq, bytes)
    values (${"a".repeat(64)}, 0, decode('52494646000102ff00', 'hex'))`);
  await db.execute(sql`insert into media (hash, content_type, size, width, height, purpose)
    values (${"a".repeat(64)}, 'image/webp', 9, 480, 320, 'image')`);
  for (let i = 1; i <= 30; i++) {
    await db.execute(sql`insert into blog_posts (title, description, content, created_at, updated_at)
      values (${`Migración ${i}`}, ${i % 3 ? `d ${i}` : null}, ${`<p>Post ${i} «quoted» \\ "x"</p><img src="/media/${"a".repeat(64)}.webp" alt="A">`},
              timestamptz '2025-01-01 10:00:00.123456+00' + ${i} * interval '1 hour', now())`);
  }
  await db.execute(sql`delete from blog_posts where id = 7`);
  await db.execute(sql`insert into job_experiences (title, company, "from", "to", "current", sort_key)
    select 'Engineer', 'Company ' || g, '2020-01', null, g = 3, g from generate_series(1, 3) g`);
  await db.execute(sql`insert into education (degree, institution, "from", "to", "current", sort_key)
    select 'BSc', 'University ' || g, '2015-09', case when g = 1 then '2019-06' end, g = 2, g
    from generate_series(1, 2) g`);
  // A draft with a history (two saves and an autosave), then deleted: the trash and the
  // revisions travel with a backup too.
  const source = { device: null, session: null, agent: "Firefox on Linux" };
  const draft = await createPost(
    db,
    {
      title: "Borrador",
      description: "",
      content: "<p>Uno</p>",
      slug: null,
      tags: ["sql"],
      publish: { mode: "draft" },
    },
    { source },
  );
  const saved = await updatePost(
    db,
    draft.id,
    {
      title: "Borrador",
      description: "",
      content: "<p>Uno dos</p>",
      slug: null,
      tags: ["sql"],
      publish: { mode: "keep" },
    },
    { baseRevision: draft.revision, source },
  );
  await autosavePost(
    db,
    draft.id,
    {
      baseRevision: saved!.revision,
      title: "Borrador",
      description: "",
      content: "<p>Uno dos tres</p>",
      slug: "",
      tags: "sql",
      publish: { mode: "draft" },
    },
    source,
  );
  await trashPost(db, draft.id);
  for (const status of ["pending", "delivered", "failed", "spam"]) {
    await db.execute(sql`insert into contact_messages (name, email, message, client_address, status, attempts)
      values ('Ana', 'ana@example.com', ${`Message ${status} ✓`}, '2001:db8:1:2::/64', ${status}, 2)`);
  }
  // Subscribers in each state, one imported with the owner's statement of consent.
  await db.execute(sql`insert into subscribers (email, status, source, client_address, consented_at, confirmed_at, unsubscribed_at)
    values ('ana@example.com', 'confirmed', 'form', '2001:db8:1:2::/64', null, now(), null),
           ('bo@example.com', 'pending', 'form', '10.0.0.1', null, null, null),
           ('cy@example.com', 'unsubscribed', 'form', '10.0.0.2', null, now(), now()),
           ('di@example.com', 'confirmed', 'import', null, now(), now(), null)`);
}

/**
 * A backup as a site before migration 0008 wrote it: education in "studies", and the flag of an
 * entry still going named "current_job" and "currently_studying". Checksum and count made anew.
 */
function beforeEducationRename(backup: Buffer): Buffer {
  const lines = gunzipSync(backup).toString("utf8").trimEnd().split("\n").slice(0, -1);
  const header = { ...JSON.parse(lines[0]!), migrations: 8 };
  const oldName = { job_experiences: "current_job", education: "currently_studying" } as const;
  const rows = lines.slice(1).map((line) => {
    const { table, row } = JSON.parse(line) as { table: string; row: Record<string, unknown> };
    if (table !== "job_experiences" && table !== "education") return line;
    const renamed = Object.entries(row).map(([key, value]) => [
      key === "current" ? oldName[table] : key,
      value,
    ]);
    const name = table === "education" ? "studies" : table;
    return JSON.stringify({ table: name, row: Object.fromEntries(renamed) });
  });
  const body = [JSON.stringify(header), ...rows].join("\n") + "\n";
  const sha256 = createHash("sha256").update(body).digest("hex");
  return gzipSync(body + JSON.stringify({ rows: rows.length, sha256 }) + "\n");
}

/** A backup as a site before migration 0023 wrote it: posts and revisions without their links. */
function beforePostLinks(backup: Buffer): Buffer {
  const lines = gunzipSync(backup).toString("utf8").trimEnd().split("\n").slice(0, -1);
  const rows = lines.slice(1).map((line) => {
    const { table, row } = JSON.parse(line) as { table: string; row: Record<string, unknown> };
    if (table !== "blog_posts" && table !== "post_revisions") return line;
    const { canonical_url: _url, syndication: _copies, ...before } = row;
    return JSON.stringify({ table, row: before });
  });
  const body = [lines[0]!, ...rows].join("\n") + "\n";
  const sha256 = createHash("sha256").update(body).digest("hex");
  return gzipSync(body + JSON.stringify({ rows: rows.length, sha256 }) + "\n");
}

describe.each(drivers.filter((d) => skipReason(d) === null).map((d) => [d.name, d] as const))(
  "backup on %s",
  (_name, driver) => {
    let source: TestDatabase;
    let file: string;
    beforeAll(async () => {
      source = await driver.fresh();
      await fill(source);
      file = path.join(dir, `${driver.name}.jsonl.gz`);
    });
    afterAll(async () => {
      await source.dispose();
    });

    it("writes every table, and restores a new database to exactly that", async () => {
      await source.db.execute(
        sql`insert into post_tags (post_id, tag, position)
            select id, 'kept', 0 from blog_posts where status = 'published' order by id limit 3`,
      );
      const summary = await writeBackup(source.db, file);
      // Readable by the server's user alone: it holds contact messages and their senders.
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const before = await contentFingerprint(source.db);
      console.log(
        `backup from ${driver.name}: ${JSON.stringify(summary.rows)}, ${summary.bytes} bytes, sha256 ${summary.sha256.slice(0, 16)}…; content ${before.sha256.slice(0, 16)}…`,
      );
      expect(summary.rows).toMatchObject({
        blog_posts: 30,
        post_revisions: 3,
        post_revision_bases: 1,
        media: 1,
        contact_messages: 4,
        subscribers: 4,
        job_experiences: 3,
        education: 2,
        profile: 1,
      });
      const target = await driver.fresh();
      try {
        await restoreBackup(target.db, readBackup(file));
        expect(await contentFingerprint(target.db)).toEqual(before);
        // Counters follow: the list's count, and new ids after the restored ones.
        const stats = (await target.db.execute(
          sql`select post_count from blog_stats`,
        )) as unknown as { rows: { post_count: number }[] };
        expect(stats.rows[0]!.post_count).toBe(29);
        // Each tag's count too, rebuilt by the tags' triggers as the rows arrive.
        const tagCounts = async (db: typeof source.db) =>
          (
            (await db.execute(
              sql`select tag, post_count from tag_stats where post_count > 0 order by tag`,
            )) as unknown as { rows: unknown[] }
          ).rows;
        const sourceTags = await tagCounts(source.db);
        expect(sourceTags.length).toBeGreaterThan(0);
        expect(await tagCounts(target.db)).toEqual(sourceTags);
        const inserted = (await target.db.execute(
          sql`insert into blog_posts (title, content) values ('next', '<p>n</p>') returning id`,
        )) as unknown as { rows: { id: number }[] };
        expect(inserted.rows[0]!.id).toBe(32);
        // The trashed draft comes back from the trash with its history.
        const trashed = (await target.db.execute(
          sql`select p.status, p.trashed_status, count(r.id)::int as revisions
              from blog_posts p join post_revisions r on r.post_id = p.id
              where p.title = 'Borrador' group by p.id`,
        )) as unknown as { rows: { status: string; trashed_status: string; revisions: number }[] };
        expect(trashed.rows).toEqual([
          { status: "trashed", trashed_status: "draft", revisions: 3 },
        ]);
        // A second restore into a database that now holds posts is refused, unchanged.
        const fingerprint = await contentFingerprint(target.db);
        await expect(restoreBackup(target.db, readBackup(file))).rejects.toThrow(
          /already holds job experiences: restore into a new or emptied database\. Nothing was changed\./,
        );
        expect(await contentFingerprint(target.db)).toEqual(fingerprint);
      } finally {
        await target.dispose();
      }
    });

    it("restores a backup written before education was renamed, its current flags kept", async () => {
      const old = path.join(dir, `${driver.name}-before-0008.jsonl.gz`);
      writeFileSync(old, beforeEducationRename(readFileSync(file)));
      expect(gunzipSync(readFileSync(old)).toString()).toContain('"currently_studying":true');
      const parsed = readBackup(old);
      expect(parsed.counts).toMatchObject({ job_experiences: 3, education: 2 });
      const target = await driver.fresh();
      try {
        await restoreBackup(target.db, parsed);
        expect(await contentFingerprint(target.db)).toEqual(await contentFingerprint(source.db));
        expect((await listEntries(target.db, "experience")).map((e) => e.current)).toEqual([
          false,
          false,
          true,
        ]);
        expect((await listEntries(target.db, "education")).map((e) => e.current)).toEqual([
          false,
          true,
        ]);
      } finally {
        await target.dispose();
      }
    });

    it("restores a backup written before posts had links elsewhere", async () => {
      const old = path.join(dir, `${driver.name}-before-0023.jsonl.gz`);
      writeFileSync(old, beforePostLinks(readFileSync(file)));
      expect(gunzipSync(readFileSync(old)).toString()).not.toContain('"syndication"');
      const target = await driver.fresh();
      try {
        await restoreBackup(target.db, readBackup(old));
        expect(await contentFingerprint(target.db)).toEqual(await contentFingerprint(source.db));
      } finally {
        await target.dispose();
      }
    });

    it("the daily schedule writes one when due, keeps the newest BACKUP_KEEP", async () => {
      const daily = mkdtempSync(path.join(dir, `${driver.name}-daily-`));
      const day = (d: number) => new Date(Date.UTC(2026, 0, d, 3));
      expect(await backupIfDue(source.db, daily, 2, day(1))).toMatch(/backup-2026-01-01T03-00-00Z/);
      // Less than a day later: not due.
      expect(
        await backupIfDue(source.db, daily, 2, new Date(day(1).getTime() + 3_600_000)),
      ).toBeNull();
      await backupIfDue(source.db, daily, 2, day(2));
      await backupIfDue(source.db, daily, 2, day(3));
      expect(backupsIn(daily)).toEqual([
        "backup-2026-01-03T03-00-00Z.jsonl.gz",
        "backup-2026-01-02T03-00-00Z.jsonl.gz",
      ]);
      expect(readBackup(path.join(daily, backupsIn(daily)[0]!)).counts.blog_posts).toBe(30);
    });

    it("refuses a damaged or foreign file with a clear message", () => {
      const good = readFileSync(file);
      const cases: [string, Buffer, RegExp][] = [
        ["truncated", good.subarray(0, good.length - 20), /not a complete backup/],
        ["not gzip", Buffer.from("hello"), /not a complete backup/],
        [
          "one byte changed",
          gzipSync(
            Buffer.from(gunzipSync(good).toString().replace("Migración 12", "Migracion 12")),
          ),
          /damaged: its contents do not match its checksum/,
        ],
        [
          "foreign",
          gzipSync(Buffer.from('{"format":"other"}\n{"rows":0}\n')),
          /not a backup of this site/,
        ],
      ];
      for (const [name, bytes, message] of cases) {
        const damaged = path.join(dir, `${driver.name}-${name}.gz`);
        writeFileSync(damaged, bytes);
        expect(() => readBackup(damaged), name).toThrow(BackupError);
        expect(() => readBackup(damaged), name).toThrow(message);
      }
      expect(() => readBackup(path.join(dir, "missing.gz"))).toThrow(/No backup file at/);
    });
  },
);

const postgres = drivers.find((d) => d.name === "postgres")!;
const pglite = drivers.find((d) => d.name === "pglite")!;

describe.skipIf(skipReason(postgres) !== null)("moving between databases", () => {
  it("a PGlite backup restores into PostgreSQL and back, unchanged", async () => {
    const start = await pglite.fresh();
    const middle = await postgres.fresh();
    const end = await pglite.fresh();
    try {
      await fill(start);
      const original = await contentFingerprint(start.db);
      const first = path.join(dir, "from-pglite.jsonl.gz");
      const second = path.join(dir, "from-postgres.jsonl.gz");
      const a = await writeBackup(start.db, first);
      await restoreBackup(middle.db, readBackup(first));
      expect(await contentFingerprint(middle.db)).toEqual(original);
      const b = await writeBackup(middle.db, second);
      await restoreBackup(end.db, readBackup(second));
      expect(await contentFingerprint(end.db)).toEqual(original);
      // The rows are written identically whichever database wrote them.
      expect(readBackup(second).rows).toEqual(readBackup(first).rows);
      expect(b.rows).toEqual(a.rows);
      console.log(
        `PGlite → PostgreSQL → PGlite: ${JSON.stringify(a.rows)}; content sha256 ${original.sha256} at every step`,
      );
    } finally {
      await Promise.all([start.dispose(), middle.dispose(), end.dispose()]);
    }
  });
});

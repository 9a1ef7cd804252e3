import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { count, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { demoContent } from "../../content/demo";
import { openDatabase, PGLITE_EXTENSIONS } from "../../database/db.server";
import { blogPosts, education, jobExperiences } from "../../database/schema";
import { seedDemoContent } from "../../database/seed.server";
import { listEntries } from "../../app/features/profile/timeline/timeline.server";
import {
  drivers,
  freshPostgresUrl,
  MIGRATIONS,
  queryRows,
  skipReason,
  TEST_DATABASE_URL,
  type Driver,
  type TestDatabase,
} from "./databases";

async function rowCount(
  db: TestDatabase["db"],
  table: typeof blogPosts | typeof jobExperiences | typeof education,
) {
  const [row] = await db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

/** A new database of the driver's kind with no migration applied. */
async function unmigrated(driver: Driver): Promise<TestDatabase> {
  if (driver.name === "pglite") {
    const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const handle = await openDatabase({ dataDir: "", pglite });
    return { ...handle, dispose: () => handle.close() };
  }
  const { url, drop } = await freshPostgresUrl();
  const handle = await openDatabase({ databaseUrl: url, dataDir: "" });
  return {
    ...handle,
    dispose: async () => {
      await handle.close();
      await drop();
    },
  };
}

/** A copy of the migrations whose journal ends at `lastTag`: a database as an older site left it. */
function migrationsUpTo(lastTag: string) {
  const folder = mkdtempSync(path.join(os.tmpdir(), "portfolio-migrations-"));
  cpSync(MIGRATIONS, folder, { recursive: true });
  const file = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(file, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`No migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(file, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

for (const driver of drivers) {
  const reason = skipReason(driver);
  if (reason) console.log(`skipping the ${driver.name} database tests: ${reason}`);

  describe.skipIf(reason !== null)(`database on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("migrations create the three tables with the original's fields (and publishing's) and the created_at index", async () => {
      const columns = await queryRows<{ table_name: string; column_name: string }>(
        database.db,
        sql`
        select table_name, column_name from information_schema.columns
        where table_schema = 'public' and table_name in ('blog_posts', 'education', 'job_experiences')
        order by table_name, ordinal_position`,
      );
      const byTable: Record<string, string[]> = {};
      for (const row of columns) (byTable[row.table_name] ??= []).push(row.column_name);
      expect(byTable).toEqual({
        blog_posts: [
          "id",
          "title",
          "description",
          "content",
          "content_en",
          "created_at",
          "updated_at",
          // Publishing (migration 0007).
          "slug",
          "status",
          "published_at",
          "search_vector",
          // The trash (migration 0009).
          "trashed_at",
          "trashed_status",
          // The newsletter (migration 0014).
          "send_to_subscribers",
          "first_published_at",
          // Share cards (migration 0015).
          "share_card",
          // A post's links elsewhere (migration 0023).
          "canonical_url",
          "syndication",
        ],
        job_experiences: ["id", "title", "company", "from", "to", "current", "sort_key"],
        education: ["id", "degree", "institution", "from", "to", "current", "sort_key"],
      });
      const indexes = await queryRows<{ indexdef: string }>(
        database.db,
        sql`
        select indexdef from pg_indexes where tablename = 'blog_posts' and indexname = 'blog_posts_created_at_idx'`,
      );
      expect(indexes[0]?.indexdef).toContain("(created_at, id)");
    });

    it("applying the migrations again changes nothing", async () => {
      await database.migrate(MIGRATIONS);
      const applied = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      const journal = JSON.parse(
        readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8"),
      ) as { entries: unknown[] };
      expect(applied[0]?.n).toBe(journal.entries.length);
    });

    it("seeds the demo content once: 3 jobs, 2 education entries, 7 posts, and never twice", async () => {
      expect(await seedDemoContent(database.db, demoContent)).toBe("seeded");
      expect(await rowCount(database.db, jobExperiences)).toBe(3);
      expect(await rowCount(database.db, education)).toBe(2);
      expect(await rowCount(database.db, blogPosts)).toBe(7);

      expect(await seedDemoContent(database.db, demoContent)).toBe("already-seeded");
      expect(await rowCount(database.db, blogPosts)).toBe(7);

      // The owner deleting every demo post must not bring them back on the next start.
      await database.db.delete(blogPosts);
      expect(await seedDemoContent(database.db, demoContent)).toBe("already-seeded");
      expect(await rowCount(database.db, blogPosts)).toBe(0);
    });

    it("never seeds over a database that already holds content", async () => {
      await database.db.insert(blogPosts).values({ title: "Mine", content: "<p>Mine</p>" });
      expect(await seedDemoContent(database.db, demoContent)).toBe("not-empty");
      expect(await rowCount(database.db, blogPosts)).toBe(1);
      expect(await rowCount(database.db, jobExperiences)).toBe(0);
    });

    it("lists experience and education in the owner's sort order", async () => {
      await database.db.insert(jobExperiences).values([
        { title: "Second", company: "B", from: "2020", to: "2021", sortKey: 2 },
        { title: "First", company: "A", from: "2022", current: true, sortKey: 1 },
      ]);
      await database.db.insert(education).values([
        { degree: "Later", institution: "Y", from: "2010", to: "2014", sortKey: 5 },
        { degree: "Earlier", institution: "X", from: "2016", current: true, sortKey: 0 },
      ]);
      const jobs = await listEntries(database.db, "experience");
      expect(jobs.map((j) => [j.title, j.company, j.from, j.to, j.current])).toEqual([
        ["First", "A", "2022", null, true],
        ["Second", "B", "2020", "2021", false],
      ]);
      const educationRows = await listEntries(database.db, "education");
      expect(educationRows.map((s) => s.degree)).toEqual(["Earlier", "Later"]);
      expect(educationRows[0]?.current).toBe(true);
    });

    it("migration 0008 renames studies to education in place: rows, flags, ids and the trigger stay", async () => {
      const old = await unmigrated(driver);
      const before = migrationsUpTo("0007_publishing");
      try {
        await old.migrate(before.folder);
        await old.db
          .execute(sql`insert into studies (degree, institution, "from", "to", currently_studying, sort_key)
          values ('MSc', 'DCU', '2024-09', null, true, 0), ('BSc', 'TUS', '2015-09', '2019-06', false, 1)`);
        await old.db.execute(sql`insert into job_experiences (title, company, "from", current_job)
          values ('Dev', 'Acme', '2023-03', true)`);

        await old.migrate(MIGRATIONS);
        expect(await listEntries(old.db, "education")).toEqual([
          { id: 1, degree: "MSc", institution: "DCU", from: "2024-09", to: null, current: true },
          {
            id: 2,
            degree: "BSc",
            institution: "TUS",
            from: "2015-09",
            to: "2019-06",
            current: false,
          },
        ]);
        expect((await listEntries(old.db, "experience")).map((e) => [e.title, e.current])).toEqual([
          ["Dev", true],
        ]);
        const [names] = await queryRows<Record<string, string>>(
          old.db,
          sql`select
            pg_get_serial_sequence('education', 'id') as sequence,
            (select conname from pg_constraint
              where conrelid = 'education'::regclass and contype = 'p') as primary_key,
            (select string_agg(indexname, ',' order by indexname) from pg_indexes
              where tablename = 'education') as indexes,
            (select string_agg(tgname, ',') from pg_trigger
              where tgrelid = 'education'::regclass and not tgisinternal) as triggers,
            to_regclass('studies')::text as old_table`,
        );
        expect(names).toEqual({
          sequence: "public.education_id_seq",
          primary_key: "education_pkey",
          indexes: "education_pkey,education_sort_idx",
          triggers: "education_page_cache",
          old_table: null,
        });
        // The id sequence goes on after the rows it had already numbered.
        const [added] = await old.db
          .insert(education)
          .values({ degree: "PhD", institution: "TCD", from: "2025", current: true })
          .returning({ id: education.id });
        expect(added?.id).toBe(3);
      } finally {
        before.remove();
        await old.dispose();
      }
    });

    it("answers a ping, and rejects one after it is closed", async () => {
      await expect(database.ping()).resolves.toBeUndefined();
      await database.close();
      await expect(database.ping(500)).rejects.toThrow();
    });
  });
}

describe.skipIf(!TEST_DATABASE_URL)("PostgreSQL start-up with several instances", () => {
  it("two instances migrating and seeding one new database at once apply each step once", async () => {
    const { url, drop } = await freshPostgresUrl();
    const a = await openDatabase({ databaseUrl: url, dataDir: "" });
    const b = await openDatabase({ databaseUrl: url, dataDir: "" });
    try {
      const results: string[] = [];
      const seed = async (db: typeof a.db) => {
        results.push(await seedDemoContent(db, demoContent));
      };
      await Promise.all([a.migrate(MIGRATIONS, seed), b.migrate(MIGRATIONS, seed)]);
      expect(results.sort()).toEqual(["already-seeded", "seeded"]);
      expect(await rowCount(a.db, blogPosts)).toBe(7);
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";

import { count, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { demoContent } from "../../content/demo";
import { openDatabase } from "../../database/db.server";
import { blogPosts, jobExperiences, studies } from "../../database/schema";
import { seedDemoContent } from "../../database/seed.server";
import { listExperiences, listStudies } from "../../app/features/profile/profile.server";
import {
  drivers,
  freshPostgresUrl,
  MIGRATIONS,
  queryRows,
  skipReason,
  TEST_DATABASE_URL,
  type TestDatabase,
} from "./databases";

async function rowCount(
  db: TestDatabase["db"],
  table: typeof blogPosts | typeof jobExperiences | typeof studies,
) {
  const [row] = await db.select({ n: count() }).from(table);
  return row?.n ?? 0;
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
        where table_schema = 'public' and table_name in ('blog_posts', 'job_experiences', 'studies')
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
        ],
        job_experiences: ["id", "title", "company", "from", "to", "current_job", "sort_key"],
        studies: ["id", "degree", "institution", "from", "to", "currently_studying", "sort_key"],
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

    it("seeds the demo content once: 3 jobs, 2 studies, 7 posts, and never twice", async () => {
      expect(await seedDemoContent(database.db, demoContent)).toBe("seeded");
      expect(await rowCount(database.db, jobExperiences)).toBe(3);
      expect(await rowCount(database.db, studies)).toBe(2);
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
        { title: "First", company: "A", from: "2022", currentJob: true, sortKey: 1 },
      ]);
      await database.db.insert(studies).values([
        { degree: "Later", institution: "Y", from: "2010", to: "2014", sortKey: 5 },
        { degree: "Earlier", institution: "X", from: "2016", currentlyStudying: true, sortKey: 0 },
      ]);
      const jobs = await listExperiences(database.db);
      expect(jobs.map((j) => [j.title, j.company, j.from, j.to, j.currentJob])).toEqual([
        ["First", "A", "2022", null, true],
        ["Second", "B", "2020", "2021", false],
      ]);
      const studyRows = await listStudies(database.db);
      expect(studyRows.map((s) => s.degree)).toEqual(["Earlier", "Later"]);
      expect(studyRows[0]?.currentlyStudying).toBe(true);
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

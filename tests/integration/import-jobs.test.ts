import { readFileSync } from "node:fs";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  IMPORT_JOBS,
  confirmImport,
  latestImport,
  planUpload,
} from "../../app/features/import/index.server";
import { claimJob, runJob } from "../../app/lib/jobs.server";
import { blogPosts } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";

// A real WordPress export (tests/fixtures/imports/README.md), as /admin/import receives it.
const WXR = new Uint8Array(
  readFileSync("tests/fixtures/imports/wordpress/theme-unit-test-trimmed.xml"),
);

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the import job on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(() => database.dispose());

    it("a dry run writes no post; Import queues one job that imports with progress, once", async () => {
      const db = database.db;
      const { id, plan } = await planUpload(db, "export.xml", WXR);
      expect(plan.counts.posts).toBe(7);
      expect(await db.select().from(blogPosts)).toEqual([]);
      expect(await latestImport(db)).toBeNull();

      expect(await confirmImport(db, id)).toBe(true);
      expect(await confirmImport(db, id)).toBe(false);
      expect(await latestImport(db)).toMatchObject({ status: "queued", done: 0 });

      const job = await claimJob(
        db,
        IMPORT_JOBS.map((h) => h.kind),
      );
      expect(job?.payload).toEqual({ id });
      await runJob(db, IMPORT_JOBS[0]!, job!);
      expect(await latestImport(db)).toMatchObject({
        fileName: "export.xml",
        status: "done",
        done: 7,
        total: 7,
        result: { created: 7, failed: [], skipped: 0 },
      });
      expect(await db.select().from(blogPosts)).toHaveLength(7);
      expect(
        await claimJob(
          db,
          IMPORT_JOBS.map((h) => h.kind),
        ),
      ).toBeNull();
    });
  });
}

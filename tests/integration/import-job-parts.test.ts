import { readFileSync } from "node:fs";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { IMPORT_LIMITS } from "../../app/features/import";
import { IMPORT_JOBS, confirmImport, planUpload } from "../../app/features/import/index.server";
import { claimJob, runJob } from "../../app/lib/jobs.server";
import { blogPosts } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";

// The import job reads its upload back IMPORT_LIMITS.readPartBytes per statement: a real
// WordPress export (tests/fixtures/imports/README.md) made to span several parts by a comment of
// two-byte characters, so that parts also end inside a character, imports as the file itself.
const xml = readFileSync("tests/fixtures/imports/wordpress/theme-unit-test-trimmed.xml", "utf8");
const padding = `<!-- ${"é".repeat(IMPORT_LIMITS.readPartBytes * 1.3)} -->`;
const WXR = new TextEncoder().encode(xml.replace(/\?>\s*/, (declaration) => declaration + padding));

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the import job's upload on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(() => database.dispose());

    it("an upload of several parts is read back whole", async () => {
      expect(WXR.byteLength).toBeGreaterThan(IMPORT_LIMITS.readPartBytes * 2.5);
      const db = database.db;
      const { id, plan } = await planUpload(db, "export.xml", WXR);
      expect(plan.counts.posts).toBe(7);
      expect(await confirmImport(db, id)).toBe(true);
      const job = await claimJob(
        db,
        IMPORT_JOBS.map((h) => h.kind),
      );
      expect(await runJob(db, IMPORT_JOBS[0]!, job!)).toMatchObject({
        ok: true,
        summary: { id, created: 7 },
      });
      expect(await db.select().from(blogPosts)).toHaveLength(7);
    });
  });
}

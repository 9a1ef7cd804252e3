import { mkdtempSync, rmSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { openDatabase } from "../../database/db.server";
import { MIGRATIONS, queryRows } from "./databases";

describe("the embedded database on disk", () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), "portfolio-data-"));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it("creates a missing DATA_DIR (parents included), and keeps its rows across a restart", async () => {
    const dataDir = path.join(parent, "nested", "data");
    const first = await openDatabase({ dataDir });
    await first.migrate(MIGRATIONS);
    await first.db.execute("insert into blog_posts (title, content) values ('Kept', '<p>x</p>')");
    await first.close();
    expect(existsSync(dataDir)).toBe(true);

    const second = await openDatabase({ dataDir });
    await second.migrate(MIGRATIONS);
    const rows = await queryRows<{ title: string }>(second.db, "select title from blog_posts");
    expect(rows.map((r) => r.title)).toEqual(["Kept"]);
    await second.close();
  });
});

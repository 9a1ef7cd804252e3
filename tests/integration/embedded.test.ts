import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { openDatabase } from "../../database/db.server";
import { makeTemplate } from "../../database/pglite-template.mjs";
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

  it("an empty DATA_DIR starts as a copy of the template (no initdb); one that holds a cluster ignores the template", async () => {
    const template = path.join(parent, "template");
    await makeTemplate(template);
    // initdb draws a new system identifier (the first 8 bytes of global/pg_control) every time.
    const systemId = (dir: string) =>
      readFileSync(path.join(dir, "global/pg_control")).subarray(0, 8).toString("hex");

    const [a, b, c] = [path.join(parent, "a"), path.join(parent, "b"), path.join(parent, "c")];
    for (const dataDir of [a, b]) {
      const handle = await openDatabase({ dataDir, template });
      await handle.migrate(MIGRATIONS);
      await handle.db.execute(`insert into blog_posts (title, content) values ('${dataDir}', 'x')`);
      await handle.close();
    }
    const initdb = await openDatabase({
      dataDir: c,
      template: path.join(parent, "missing"),
    });
    await initdb.close();
    expect(systemId(a)).toBe(systemId(b));
    expect(systemId(c)).not.toBe(systemId(a));

    const reopened = await openDatabase({ dataDir: a, template });
    await reopened.migrate(MIGRATIONS);
    const rows = await queryRows<{ title: string }>(reopened.db, "select title from blog_posts");
    expect(rows.map((r) => r.title)).toEqual([a]);
    await reopened.close();
    expect(systemId(a)).toBe(systemId(b));
  });

  it("a template made with the migrations starts a new DATA_DIR migrated: the first start applies none", async () => {
    const template = path.join(parent, "template-migrated");
    await makeTemplate(template, MIGRATIONS);
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8"));
    const applied = (handle: Awaited<ReturnType<typeof openDatabase>>) =>
      queryRows<{ n: number }>(
        handle.db,
        "select count(*)::int as n from drizzle.__drizzle_migrations",
      );

    const dataDir = path.join(parent, "migrated");
    const handle = await openDatabase({ dataDir, template });
    // Before the server's own migrate: the schema is there, every migration recorded once.
    expect(await applied(handle)).toEqual([{ n: journal.entries.length }]);
    await handle.db.execute("insert into blog_posts (title, content) values ('Ready', 'x')");
    await handle.migrate(MIGRATIONS);
    expect(await applied(handle)).toEqual([{ n: journal.entries.length }]);
    const rows = await queryRows<{ title: string }>(handle.db, "select title from blog_posts");
    expect(rows.map((r) => r.title)).toEqual(["Ready"]);
    await handle.close();
  });

  it("a copy of the template cut short (no PG_VERSION) is copied again at the next start", async () => {
    const template = path.join(parent, "template-cut");
    await makeTemplate(template);
    const dataDir = path.join(parent, "cut");
    // What a crash or a full disk during the copy leaves: some files, and no PG_VERSION, which
    // is copied last.
    cpSync(path.join(template, "global"), path.join(dataDir, "global"), { recursive: true });
    writeFileSync(path.join(dataDir, "global/pg_control"), "torn");
    expect(existsSync(path.join(dataDir, "PG_VERSION"))).toBe(false);

    const handle = await openDatabase({ dataDir, template });
    await handle.migrate(MIGRATIONS);
    await handle.db.execute("insert into blog_posts (title, content) values ('After', 'x')");
    const rows = await queryRows<{ title: string }>(handle.db, "select title from blog_posts");
    expect(rows.map((r) => r.title)).toEqual(["After"]);
    await handle.close();
    expect(readFileSync(path.join(dataDir, "PG_VERSION"), "utf8")).toBe(
      readFileSync(path.join(template, "PG_VERSION"), "utf8"),
    );
  });
});

import { PGlite, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { withPreparedStatements } from "../../database/prepared-pglite";

/**
 * The PGlite client drizzle is given keeps each statement prepared. What it answers must be
 * exactly what PGlite's own query answers, for every kind of value and error.
 */
describe("PGlite with prepared statements", () => {
  let raw: PGlite;
  let client: PGlite;
  const LIMIT = 5;
  const preparedCount = async () =>
    Number(
      (await raw.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements"))
        .rows[0]!.n,
    );

  beforeAll(async () => {
    raw = await PGlite.create();
    client = withPreparedStatements(raw, LIMIT);
    await raw.exec(`
      create table things (
        id serial primary key, name text not null unique, at timestamptz, tags text[],
        data jsonb, big bigint, raw bytea, flag boolean);
      insert into things (name, at, tags, data, big, raw, flag) values
        ('a', '2026-01-02T03:04:05Z', '{x,y}', '{"k":[1,2]}', 9007199254740993, '\\x0102', true),
        ('b', null, '{}', null, 1, null, false);`);
  });
  afterAll(() => raw.close());

  const cases: [string, unknown[], object?][] = [
    ["select * from things order by id", []],
    ["select * from things where name = $1", ["a"]],
    ["select * from things where name = $1", ["nobody"]],
    ["select id, name from things where id = any($1) order by id", [[1, 2]], { rowMode: "array" }],
    ["select $1::jsonb as j, $2::timestamptz as t, $3::int as n", [{ a: 1 }, new Date(0), null]],
    [
      "select at, name from things where name = $1",
      ["a"],
      { rowMode: "array", parsers: { [types.TIMESTAMPTZ]: (v: string) => `raw:${v}` } },
    ],
  ];

  it("answers every query exactly as PGlite's query does, the first time and after", async () => {
    for (const [text, params, options] of cases) {
      const expected = await raw.query(text, params, options);
      expect(await client.query(text, params, options)).toEqual(expected);
      expect(await client.query(text, params, options)).toEqual(expected);
    }
    expect(await preparedCount()).toBeGreaterThan(0);
  });

  it("reports writes as PGlite does, and a failed statement with PGlite's own error, changing nothing", async () => {
    const insert = "insert into things (name) values ($1) returning id";
    const expected = { command: "INSERT", affectedRows: 1, rowCount: 1 };
    expect(await client.query(insert, ["c"])).toMatchObject(expected);
    const duplicate = client.query(insert, ["c"]);
    await expect(duplicate).rejects.toMatchObject({ code: "23505" });
    await expect(client.query("select nonsense from things", [])).rejects.toMatchObject({
      code: "42703",
    });
    const names = await client.query<{ name: string }>("select name from things order by id");
    expect(names.rows.map((r) => r.name)).toEqual(["a", "b", "c"]);
    // The session is usable after the errors.
    expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("keeps at most its limit of statements, closing the least recently used", async () => {
    for (let i = 0; i < LIMIT * 3; i += 1) {
      expect((await client.query(`select ${i} as n`)).rows).toEqual([{ n: i }]);
    }
    expect(await preparedCount()).toBe(LIMIT);
  });

  it("prepares a statement again when its table changes shape", async () => {
    const text = "select * from things where name = $1";
    const before = await client.query(text, ["a"]);
    expect(before.fields.map((f) => f.name)).not.toContain("extra");
    await raw.exec("alter table things add column extra text default 'e'");
    const after = await client.query<{ extra: string }>(text, ["a"]);
    expect(after).toEqual(await raw.query(text, ["a"]));
    expect(after.rows[0]!.extra).toBe("e");
  });

  it("waits for a transaction in progress, as PGlite's query does", async () => {
    const order: string[] = [];
    const transaction = raw.transaction(async (tx) => {
      await tx.query("insert into things (name) values ('in-tx')");
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push("transaction");
      await tx.rollback();
    });
    const outside = client.query("select count(*)::int as n from things where name = 'in-tx'");
    const { rows } = await outside;
    order.push("query");
    await transaction;
    // The rolled-back row was never seen: the query ran after the transaction ended.
    expect(rows).toEqual([{ n: 0 }]);
    expect(order).toEqual(["transaction", "query"]);
  });
});

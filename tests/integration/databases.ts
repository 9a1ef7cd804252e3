import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import type { SQLWrapper } from "drizzle-orm";
import pg from "pg";
import { RouterContextProvider } from "react-router";

import { appContext } from "../../app/context";
import { parseEnv } from "../../app/lib/env.server";
import { openDatabase, PGLITE_EXTENSIONS, type DatabaseHandle } from "../../database/db.server";

export const MIGRATIONS = path.resolve(import.meta.dirname, "../../database/migrations");

/** PostgreSQL tests run when this is set (`.ci/run` sets it); see scripts/test.mjs. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export type TestDatabase = DatabaseHandle & { dispose(): Promise<void> };

let pgliteTemplate: Promise<Blob> | undefined;

/** A migrated, empty PGlite database in memory, cloned from a template made once per file. */
export async function freshPglite(): Promise<TestDatabase> {
  pgliteTemplate ??= (async () => {
    const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const handle = await openDatabase({ dataDir: "", pglite: client });
    await handle.migrate(MIGRATIONS);
    const dump = await client.dumpDataDir("none");
    await client.close();
    return dump;
  })();
  const client = await PGlite.create({
    loadDataDir: await pgliteTemplate,
    extensions: PGLITE_EXTENSIONS,
  });
  const handle = await openDatabase({ dataDir: "", pglite: client });
  return { ...handle, dispose: () => handle.close() };
}

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new, empty (unmigrated) database on the test server, dropped by `dispose`. */
export async function freshPostgresUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    url: withDatabase(TEST_DATABASE_URL, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A migrated, empty PostgreSQL database of its own. */
export async function freshPostgres(): Promise<TestDatabase> {
  const { url, drop } = await freshPostgresUrl();
  const handle = await openDatabase({ databaseUrl: url, dataDir: "" });
  await handle.migrate(MIGRATIONS);
  return {
    ...handle,
    dispose: async () => {
      await handle.close();
      await drop();
    },
  };
}

export type Driver = { name: "pglite" | "postgres"; fresh: () => Promise<TestDatabase> };

export const drivers: Driver[] = [
  { name: "pglite", fresh: freshPglite },
  { name: "postgres", fresh: freshPostgres },
];

/** Why a driver's tests do not run here, or null when they do. */
export function skipReason(driver: Driver): string | null {
  if (driver.name === "postgres" && !TEST_DATABASE_URL) {
    return "TEST_DATABASE_URL is not set";
  }
  return null;
}

/** Raw SQL in tests: both drivers answer `{ rows }`, which the shared Database type leaves open. */
export async function queryRows<T>(
  db: DatabaseHandle["db"],
  query: SQLWrapper | string,
): Promise<T[]> {
  const result = (await db.execute(query as SQLWrapper)) as unknown as { rows: T[] };
  return result.rows;
}

/** What the server hands a loader or action: this database and the default settings. */
export function routeContext(database: DatabaseHandle) {
  const context = new RouterContextProvider();
  context.set(appContext, { db: database.db, env: parseEnv({}), clientAddress: "127.0.0.1" });
  return context;
}

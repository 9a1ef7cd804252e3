import { mkdirSync } from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { Client as PgClient } from "pg";

import * as schema from "./schema";
import { copyTemplate, PGLITE_EXTENSIONS } from "./pglite-template.mjs";
import { ensureWalReserve, keepWalReserve, type WalReport } from "./pglite-wal";
import { withPreparedStatements } from "./prepared-pglite";

/** The database handle every data module takes: the same type for both drivers. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /** Runs `select 1`; rejects when the database does not answer within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  /** Applies pending migrations (and runs `after`, e.g. seeding) under one lock across instances. */
  migrate(migrationsFolder: string, after?: (db: Database) => Promise<void>): Promise<void>;
  /**
   * Calls `onMessage` for every NOTIFY on `channel`. On PostgreSQL a dedicated connection
   * listens and reconnects by itself; `onResync` runs after each reconnection, since
   * notifications sent meanwhile are lost.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onResync: () => void,
  ): Promise<{ close(): Promise<void> }>;
  close(): Promise<void>;
};

/**
 * Holds a lock on `key` until the transaction ends: writers of the same key (one address's
 * sign-in attempts, say) take turns, on every instance.
 */
/** The rows of `db.execute` (both drivers answer `{ rows }`), typed as the query selects them. */
export const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;

export async function lockUntilCommit(tx: Pick<Database, "execute">, key: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** Sends a NOTIFY (committed at once) on `channel`. */
export async function notify(db: Database, channel: string, payload: string) {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** How long a ping waits for `select 1` unless told otherwise. */
const PING_TIMEOUT_MS = 2000;
/** How long the PostgreSQL listener waits before reconnecting after losing its connection. */
const LISTEN_RETRY_MS = 1000;

export { PGLITE_EXTENSIONS };

/** Any fixed number: instances migrating one PostgreSQL database take turns on it. */
const MIGRATION_LOCK_ID = 727_274_001;

export type OpenOptions = {
  /** A postgres:// URL; unset opens the embedded database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /**
   * A folder holding a freshly initialised cluster (./pglite-template.mjs): an empty `dataDir`
   * starts as a copy of it instead of running initdb. Ignored when `dataDir` holds a cluster.
   */
  template?: string;
  /** Open an existing PGlite instance instead (tests clone a template into memory). */
  pglite?: PGlite;
  /** Told when the embedded database's write-ahead log reserve cannot be kept (./pglite-wal.ts). */
  onWal?: WalReport;
};

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  let client = options.pglite;
  if (!client) {
    // PGlite does not create parent directories: make DATA_DIR first.
    const dir = path.resolve(options.dataDir);
    mkdirSync(dir, { recursive: true });
    copyTemplate(dir, options.template);
    client = await PGlite.create(dir, {
      extensions: PGLITE_EXTENSIONS,
      // PostgreSQL's default 128 MB of shared buffers lives inside the WebAssembly memory,
      // which never shrinks; this site's working set fits in far less, and the kernel caches
      // the data files anyway. Start-up peak fell to 166 MB (docs/measurements/memory.md).
      startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
    });
    // The log's next segments made while there is room, and recycled as they are used.
    await ensureWalReserve(client, dir, options.onWal);
    return wrapPglite(client, keepWalReserve(client, dir, options.onWal));
  }
  return wrapPglite(client);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function wrapPglite(client: PGlite, walKeeper?: { stop(): void }): DatabaseHandle {
  // Each statement the site asks is planned once and kept (./prepared-pglite.ts).
  const db = drizzlePglite({
    client: withPreparedStatements(client),
    schema,
  }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    ping: async (timeoutMs = PING_TIMEOUT_MS) => {
      await withTimeout(client.query("select 1"), timeoutMs, "the database").catch(
        (error: unknown) => {
          // After a PANIC (a write-ahead log segment it could not create on a full disk, say)
          // PGlite answers every query with one: only a restart, with room on the disk, mends it.
          if ((error as { severity?: unknown }).severity !== "PANIC") throw error;
          throw new Error(
            `The embedded database stopped after a failed write (${(error as Error).message}); ` +
              "free space on the data directory's disk and restart the server.",
            { cause: error },
          );
        },
      );
    },
    migrate: async (migrationsFolder, after) => {
      // One process owns an embedded database, so no lock is needed here.
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
      await after?.(db);
    },
    listen: async (channel, onMessage) => {
      // One process owns the embedded database: its own NOTIFYs are the only ones.
      const unlisten = await client.listen(channel, onMessage);
      return {
        close: async () => {
          if (!client.closed) await unlisten();
        },
      };
    },
    close: async () => {
      walKeeper?.stop();
      if (!client.closed) await client.close();
    },
  };
}

/** The PostgreSQL driver, loaded when first used: an embedded site starts without it. */
const loadPostgresDriver = async () => {
  const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);
  return { pg, drizzle, migrate };
};
type PostgresDriver = Awaited<ReturnType<typeof loadPostgresDriver>>;

async function openPostgres(connectionString: string): Promise<DatabaseHandle> {
  const driver = await loadPostgresDriver();
  const { pg, drizzle: drizzleNodePg, migrate: migrateNodePg } = driver;
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // A database that stops answering fails requests within seconds instead of holding them
    // (server/health.ts then answers 503 until it is back).
    connectionTimeoutMillis: 3000,
    query_timeout: 5000,
    keepAlive: true,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (error) => console.error("PostgreSQL pool error:", error.message));
  // A client checked out for a transaction has no listener of the pool's: its connection lost
  // mid-transaction would throw an unhandled 'error' and end the process. The transaction's
  // query fails with the same error, which is what the caller sees.
  pool.on("connect", (client) => client.on("error", () => {}));
  const nodePg = drizzleNodePg({ client: pool, schema });
  const db = nodePg as unknown as Database;
  return {
    db,
    kind: "postgres",
    ping: async (timeoutMs = PING_TIMEOUT_MS) => {
      await withTimeout(db.execute(sql`select 1`), timeoutMs, "the database");
    },
    migrate: async (migrationsFolder, after) => {
      const lockClient = await pool.connect();
      try {
        await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
        await migrateNodePg(nodePg, { migrationsFolder });
        await after?.(db);
      } finally {
        await lockClient
          .query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID])
          .catch(() => {});
        lockClient.release();
      }
    },
    listen: (channel, onMessage, onResync) =>
      listenPostgres(driver, connectionString, channel, onMessage, onResync),
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}

/** LISTEN on a connection of its own, reconnecting (and resyncing) whenever it is lost. */
async function listenPostgres(
  { pg }: PostgresDriver,
  connectionString: string,
  channel: string,
  onMessage: (payload: string) => void,
  onResync: () => void,
): Promise<{ close(): Promise<void> }> {
  let client: PgClient | null = null;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const connect = async () => {
    const next = new pg.Client({
      connectionString,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    next.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    next.on("error", (error) => {
      console.error(`PostgreSQL listener lost its connection: ${error.message}`);
      reconnect(next);
    });
    next.on("end", () => reconnect(next));
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
  };

  const reconnect = (lost: PgClient) => {
    if (closed || retry || (client !== null && client !== lost)) return;
    client = null;
    lost.removeAllListeners();
    lost.on("error", () => {});
    lost.end().catch(() => {});
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => {
          console.log(`PostgreSQL listener reconnected to "${channel}".`);
          onResync();
        },
        (error: unknown) => {
          console.error(
            `PostgreSQL listener could not reconnect: ${error instanceof Error ? error.message : error}`,
          );
          if (client === null) reconnect(lost);
        },
      );
    }, LISTEN_RETRY_MS);
  };

  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      current?.removeAllListeners();
      await current?.end().catch(() => {});
    },
  };
}

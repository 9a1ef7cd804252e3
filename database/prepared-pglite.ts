import {
  parse,
  protocol,
  type ExecProtocolResult,
  type PGlite,
  type QueryOptions,
  type Results,
} from "@electric-sql/pglite";

/**
 * PGlite's `query` sends each statement through six protocol round trips into PostgreSQL
 * (parse, describe, bind, describe, execute, sync) and plans it afresh every time. The site asks
 * the same few dozen statements over and over (drizzle writes the same text for the same query),
 * so this keeps each one as a named prepared statement: the first call parses and describes it,
 * later calls bind, execute and sync in one round trip, and PostgreSQL reuses the plan
 * (docs/decisions/021-prepared-statements-on-pglite.md).
 *
 * Results are what PGlite's own `query` returns (its parsers, its serializers, the caller's
 * overrides). A statement that cannot be kept (one with a file, or fixed parameter types) or
 * that fails goes through PGlite's `query` as before, so errors read exactly as they did.
 */

/** At most this many statements are kept; the least recently used is closed to make room. */
export const PREPARED_STATEMENT_LIMIT = 200;

/**
 * SQLSTATE 0A000 "cached plan must not change result type": the statement's tables changed
 * shape since it was prepared. It is prepared again.
 */
const PLAN_CHANGED = "0A000";
/** SQLSTATE 26000 "prepared statement does not exist" (closed behind our back, e.g. DISCARD ALL). */
const STATEMENT_GONE = "26000";

type Statement = {
  name: string;
  /** The parameter types PostgreSQL inferred, for PGlite's serializers. */
  paramTypes: number[];
  /** Its columns, as PGlite's results name them (empty for one that returns no rows). */
  fields: { name: string; dataTypeID: number }[];
};

/** Commands whose row count PGlite reports as affectedRows. */
const AFFECTING = new Set(["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"]);

type BackendMessage = ExecProtocolResult["messages"][number];

type Query = PGlite["query"];

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
};

const sqlState = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined;

/** The statements kept for one client, the least recently used first. */
class PreparedStatements {
  private readonly statements = new Map<string, Statement>();
  private counter = 0;
  private readonly client: PGlite;
  private readonly limit: number;

  constructor(client: PGlite, limit: number) {
    this.client = client;
    this.limit = limit;
  }

  /** Runs `text` as its kept statement, preparing it first if it is not kept yet. */
  async execute(text: string, params: unknown[], options?: QueryOptions) {
    let statement = this.statements.get(text);
    if (statement) {
      // Most recently used last.
      this.statements.delete(text);
      this.statements.set(text, statement);
    } else {
      statement = await this.prepare(text, options);
    }
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i];
      const serialize =
        type === undefined
          ? undefined
          : (options?.serializers?.[type] ?? this.client.serializers[type]);
      return serialize ? serialize(value) : String(value);
    });
    const messages = await this.run(
      concat([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      options,
    );
    await this.client.syncToFs();
    return resultOf(this.client, statement, messages, options);
  }

  /** Stops keeping `text`'s statement (PostgreSQL no longer has it as it was). */
  forget(text: string) {
    this.statements.delete(text);
  }

  private async run(message: Uint8Array, options?: QueryOptions) {
    const { messages } = await this.client.execProtocol(message, {
      syncToFs: false,
      onNotice: options?.onNotice,
    });
    return messages;
  }

  private async prepare(text: string, options?: QueryOptions): Promise<Statement> {
    if (this.statements.size >= this.limit) {
      // Maps iterate in insertion order and each use re-inserts: the first is the least recent.
      const [oldestText, oldest] = this.statements.entries().next().value!;
      this.statements.delete(oldestText);
      await this.run(
        concat([
          protocol.serialize.close({ type: "S", name: oldest.name }),
          protocol.serialize.sync(),
        ]),
      );
    }
    const name = `site_${(this.counter += 1)}`;
    const messages = await this.run(
      concat([
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
      options,
    );
    const statement: Statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      fields:
        messages
          .find((m) => m instanceof protocol.messages.RowDescriptionMessage)
          ?.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })) ?? [],
    };
    this.statements.set(text, statement);
    return statement;
  }
}

/**
 * PGlite's parseResults, for one statement whose row description is known: each column's
 * parser is looked up once (the caller's, else the client's), not once per value, and the
 * client's parsers are not copied on every call.
 */
function resultOf(
  client: PGlite,
  statement: Statement,
  messages: BackendMessage[],
  options?: QueryOptions,
) {
  const columns = statement.fields.map(({ dataTypeID }) => {
    const parser = options?.parsers?.[dataTypeID] ?? client.parsers[dataTypeID];
    return parser ? (text: string) => parser(text, dataTypeID) : (text: string) => text;
  });
  const rows: Results["rows"] = [];
  const arrays = options?.rowMode === "array";
  let command = "";
  let rowCount = Number.NaN;
  for (const message of messages) {
    if (message instanceof protocol.messages.DataRowMessage) {
      const values = message.fields.map((text, i) => (text === null ? null : columns[i]!(text)));
      rows.push(
        arrays ? values : Object.fromEntries(statement.fields.map((f, i) => [f.name, values[i]])),
      );
    } else if (message instanceof protocol.messages.CommandCompleteMessage) {
      const words = message.text.split(" ");
      command = words[0] ?? "";
      rowCount = Number.parseInt(words.at(-1)!, 10);
    }
  }
  const result: Results & { command: string; rowCount?: number } = {
    rows,
    fields: statement.fields,
    affectedRows: AFFECTING.has(command) && !Number.isNaN(rowCount) ? rowCount : 0,
    command,
  };
  if (!Number.isNaN(rowCount)) result.rowCount = rowCount;
  return result;
}

/**
 * The PGlite client drizzle is given: PGlite itself, but `query` keeps prepared statements.
 * Transactions (`transaction`'s own `tx.query`) and everything else are PGlite's.
 */
export function withPreparedStatements(client: PGlite, limit = PREPARED_STATEMENT_LIMIT): PGlite {
  const prepared = new PreparedStatements(client, limit);
  // After a PANIC the backend answers nothing sensibly, and some statements never return
  // (a write-ahead log segment that could not be created, say): every later call gets the
  // PANIC at once, without reaching PGlite. Only a restart mends it.
  let stopped: unknown = null;
  const latch = (error: unknown) => {
    if ((error as { severity?: unknown } | null)?.severity === "PANIC") stopped ??= error;
    throw error;
  };

  const query = (async (text: string, params: unknown[] = [], options?: QueryOptions) => {
    if (stopped) throw stopped;
    if (options?.blob || options?.paramTypes) {
      return client.query(text, params, options).catch(latch);
    }
    await client._checkReady();
    // As PGlite's query: after any transaction in progress, one statement at a time.
    const result = await client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          return await prepared.execute(text, params, options);
        } catch (error) {
          // Asked again the usual way, a PANIC's statement never returned.
          if ((error as { severity?: unknown }).severity === "PANIC") latch(error);
          const code = sqlState(error);
          if (code === PLAN_CHANGED || code === STATEMENT_GONE) prepared.forget(text);
          return null;
        }
      }),
    );
    // Anything that failed is asked again the usual way: its error is PGlite's own.
    if (result === null) return client.query(text, params, options).catch(latch);
    return result;
  }) as Query;
  const GUARDED = new Set<PropertyKey>(["exec", "transaction", "sql"]);

  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (!GUARDED.has(property)) return bound;
      return async (...args: unknown[]) => {
        if (stopped) throw stopped;
        try {
          return await bound(...args);
        } catch (error) {
          return latch(error);
        }
      };
    },
  });
}

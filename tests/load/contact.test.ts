import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  errorLines,
  freshPostgres,
  percentile,
  startServer,
  tail,
  TEST_DATABASE_URL,
  type PostgresDatabase,
  type ServerProcess,
} from "./harness";

/**
 * No lost message (docs/product.md#robustness): 1,000 valid contact messages from 50
 * concurrent clients (20 each, one after another) on PostgreSQL, with the rate limit lifted:
 * every one answered 2xx and stored exactly once.
 * No mail transport is configured, so the messages are only stored.
 */
const PORT = 3242;
const CLIENTS = 50;
const PER_CLIENT = 20;
const TOTAL = CLIENTS * PER_CLIENT;

if (!TEST_DATABASE_URL) {
  console.log(
    "Skipped: contact submissions under load need PostgreSQL; TEST_DATABASE_URL is not set",
  );
}

describe.skipIf(!TEST_DATABASE_URL)("contact submissions under load (PostgreSQL)", () => {
  let database: PostgresDatabase;
  let server: ServerProcess;
  const run = Date.now().toString(36);

  beforeAll(async () => {
    database = await freshPostgres("load_contact");
    server = await startServer(PORT, { DATABASE_URL: database.url, CONTACT_RATE_LIMIT: "0" });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it(`stores ${TOTAL} messages from ${CLIENTS} concurrent clients, each exactly once`, async () => {
    const sent: string[] = [];
    const failures: string[] = [];
    const latencies: number[] = [];

    const client = async (c: number) => {
      for (let n = 0; n < PER_CLIENT; n++) {
        const message = `Load test ${run}: client ${c}, message ${n}. Hola, ¿qué tal?`;
        sent.push(message);
        const started = performance.now();
        try {
          const response = await fetch(`${server.base}/api/contact`, {
            method: "POST",
            body: new URLSearchParams({
              name: `Client ${c}`,
              email: `client${c}@example.com`,
              message,
            }),
            signal: AbortSignal.timeout(30_000),
          });
          const text = await response.text();
          latencies.push(performance.now() - started);
          let ok = false;
          try {
            ok = (JSON.parse(text) as { ok?: unknown }).ok === true;
          } catch {
            // reported below
          }
          if (response.status < 200 || response.status > 299 || !ok) {
            failures.push(`${message}: ${response.status} ${text.slice(0, 200)}`);
          }
        } catch (error) {
          failures.push(`${message}: ${(error as Error).message}`);
        }
      }
    };

    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      `contact: ${TOTAL} submissions from ${CLIENTS} clients in ${seconds.toFixed(1)} s ` +
        `(${(TOTAL / seconds).toFixed(0)}/s), latency p50 ${percentile(latencies, 50).toFixed(0)} ms, ` +
        `p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms; ` +
        `${failures.length} failed`,
    );
    expect(
      failures,
      `${failures.length} submissions were not answered 2xx {ok: true}; server output:\n${tail(server)}`,
    ).toEqual([]);

    const rows = await database.query<{ message: string; copies: number; spam: number }>(
      "select message, count(*)::int as copies, count(*) filter (where status = 'spam')::int as spam " +
        "from contact_messages group by message",
    );
    const stored = new Map(rows.map((row) => [row.message, row.copies]));
    const sentSet = new Set(sent);
    const missing = sent.filter((m) => !stored.has(m));
    const duplicated = rows.filter((row) => row.copies !== 1);
    const unexpected = rows.filter((row) => !sentSet.has(row.message));
    const spam = rows.filter((row) => row.spam > 0);
    console.log(
      `contact: ${stored.size}/${TOTAL} distinct messages stored, ${missing.length} missing, ` +
        `${duplicated.length} stored more than once, ${unexpected.length} unexpected`,
    );
    expect(sentSet.size).toBe(TOTAL);
    expect(missing, "answered messages missing from contact_messages").toEqual([]);
    expect(duplicated, "messages stored more than once").toEqual([]);
    expect(unexpected, "rows nobody sent").toEqual([]);
    expect(spam, "valid messages stored as spam").toEqual([]);
    expect(rows).toHaveLength(TOTAL);
    expect(errorLines(server), "the server logged errors").toEqual([]);
  }, 120_000);
});

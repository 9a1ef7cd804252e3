// The production bundle in process, on a fresh database, behind one `probe` that checks the
// properties every answer must keep (docs/product.md#robustness): no 5xx, an X-Request-Id of
// our own, nothing internal in the body, and no stored row changed by a refused request.
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { expect, inject } from "vitest";

import { freshPglite, freshPostgres, queryRows, type TestDatabase } from "../integration/databases";
import type * as ServerApp from "../../server/app";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The site's own origin (SITE_URL); `app.request("/x")` arrives as http://localhost/x. */
export const SITE_URL = "http://localhost:3000";
export const OWNER_PASSWORD = "fuzzing owner password 7";
/** Where the owner signs in from, so fuzzed sign-ins from elsewhere cannot throttle it. */
const OWNER_ADDRESS = "198.51.100.77";

type Bundle = Pick<typeof ServerApp, "createSiteApp" | "parseEnv" | "setOwnerPassword">;

let bundle: Promise<{ root: string; exports: Bundle }> | undefined;

/** `build/server/index.js` as `npm run serve` runs it, from this layer's copy (./global-setup.ts). */
export function loadBundle() {
  bundle ??= (async () => {
    const root = inject("builtRoot");
    const file = path.join(root, "build/server/index.js");
    return { root, exports: (await import(/* @vite-ignore */ file)) as Bundle };
  })();
  return bundle;
}

/**
 * Tables a refused request must leave alone. Not sign_in_failures: recording a failed sign-in
 * is the throttle's whole job (5 per address per hour), so a 401 rightly adds a row there.
 */
export const TABLES = [
  "blog_posts",
  "blog_stats",
  "contact_messages",
  "job_experiences",
  "education",
  "owner",
  "sessions",
  "owner_devices",
  "app_meta",
] as const;
export type Table = (typeof TABLES)[number];

/**
 * A fingerprint of every row version per table: each write makes a new version (new ctid and
 * xmin), even one that stores the same values, and reading this never touches post bodies
 * (unlike hashing `row::text`, which would detoast megabytes of content per request).
 */
const SNAPSHOT_SQL = `select ${TABLES.map(
  (t) =>
    `(select md5(coalesce(string_agg(r.ctid::text || r.xmin::text, ',' order by r.ctid), '')) from ${t} r) as ${t}`,
).join(", ")}`;

const HORIZON_SQL = "select pg_snapshot_xmax(pg_current_snapshot())::text as horizon";

type Snapshot = Record<Table, string>;

export type Probe = {
  method?: string;
  /** Path and query, as sent (already percent-encoded where that matters). */
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
  /** Send the body as a stream without Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
  /** The client's address as the socket would give it; unset is what app.request gives ("unknown"). */
  address?: string;
  /** Sign the request with the owner's session cookie. */
  owner?: boolean;
  /** Tables a 2xx or 3xx answer to an unsafe request may change. */
  mayChange?: readonly Table[];
};

export type Answer = { status: number; headers: Headers; text: string; changed: Table[] };

type Row = { sent: number; statuses: Map<number, number>; ms: number };

export type Site = {
  name: string;
  database: TestDatabase;
  /** `Cookie` header value of the owner's session. */
  ownerCookie: string;
  probe(label: string, request: Probe): Promise<Answer>;
  snapshot(): Promise<Snapshot>;
  sql<T>(query: string): Promise<T[]>;
  /** Per-endpoint figures for the closing summary. */
  summary(): string;
  close(): Promise<void>;
};

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * What must never reach a client: stack frames, source positions, paths inside the server,
 * SQL and database errors. Each is matched in the body; a match that the requests themselves
 * carried (an echoed search, a stored post) is an echo, not a leak.
 */
const escape = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
const leakPatterns = (bundleRoot: string): [string, RegExp][] => [
  ["a stack frame", /(?:\n|\\n)\s*at [^\n]{0,200}?:\d+:\d+/],
  ["a stack frame", /\bat (?:async )?[\w$.<>[\]]+ \((?:file:|node:|\/)[^)\n]*:\d+:\d+\)/],
  ["a source position", /\.(?:[cm]?[jt]sx?):\d+:\d+/],
  ["a server path", escape(ROOT)],
  ["a server path", escape(bundleRoot)],
  ["a server path", /\/work\/|node_modules|file:\/\/\/|node:internal|server-build-/],
  [
    "SQL",
    /\bselect\s+(?:distinct\s+)?(?:"|\*|count\(|1\b)|\binsert\s+into\b|\bupdate\s+"\w+"\s+set\b|\bdelete\s+from\b/i,
  ],
  [
    "a database error",
    /failed query|syntax error at|violates (?:not-null|unique|check|foreign)|duplicate key|invalid byte sequence|invalid input syntax|drizzle|pglite|sqlstate|ECONNREFUSED/i,
  ],
  [
    "an exception",
    /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|URIError|DrizzleQueryError)\b/,
  ],
];

/** Lower case letters and digits only: echoes survive HTML and JSON escaping in this form. */
const normalize = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "");

function logCapture() {
  const events = new Map<string, number>();
  /** The first few distinct server errors, for the summary (their lines stay out of the output). */
  const errors = new Set<string>();
  const originals = { log: console.log, error: console.error, warn: console.warn };
  const keep =
    (level: keyof typeof originals) =>
    (...args: unknown[]) => {
      const first = typeof args[0] === "string" ? args[0] : "";
      let event = `${level}: ${first.slice(0, 40)}`;
      try {
        const parsed = JSON.parse(first) as { event?: unknown; error?: unknown };
        if (typeof parsed.event === "string") event = parsed.event;
        if (level === "error" && errors.size < 8 && typeof parsed.error === "string")
          errors.add(`${event}: ${parsed.error.slice(0, 160)}`);
      } catch {
        // not one of the app's JSON lines (React Router's own warnings, the blog's console.error)
      }
      events.set(event, (events.get(event) ?? 0) + 1);
    };
  console.log = keep("log");
  console.error = keep("error");
  console.warn = keep("warn");
  return {
    events,
    errors,
    restore() {
      Object.assign(console, originals);
    },
  };
}

export async function openSite(kind: "pglite" | "postgres"): Promise<Site> {
  const { root, exports } = await loadBundle();
  const { createSiteApp, parseEnv, setOwnerPassword } = exports;
  const database = kind === "pglite" ? await freshPglite() : await freshPostgres();
  const env = parseEnv({
    NODE_ENV: "production",
    DATA_DIR: "unused",
    SITE_URL,
    // Valid messages are stored however many arrive (only invalid ones must change nothing).
    CONTACT_RATE_LIMIT: "0",
  });
  const app = createSiteApp({ env, database, root });
  const leaks = leakPatterns(root);
  await setOwnerPassword(database.db, OWNER_PASSWORD);

  const rows = new Map<string, Row>();
  const echoes: string[] = [];
  const logs = logCapture();
  const started = performance.now();
  let ownerCookie = "";
  let snapshotMs = 0;

  const sql = <T>(query: string) => queryRows<T>(database.db, query);
  // Every write takes a transaction id, and the server's horizon of finished ones moves past
  // it: while the horizon stands still, no table can have changed and the last fingerprint
  // holds (most requests write nothing). Other databases on the server only cost a recount.
  let last: { horizon: string; snapshot: Snapshot } | undefined;
  const snapshot = async () => {
    const [{ horizon }] = (await sql<{ horizon: string }>(HORIZON_SQL)) as [{ horizon: string }];
    if (last?.horizon !== horizon) {
      last = { horizon, snapshot: (await sql<Snapshot>(SNAPSHOT_SQL))[0]! };
    }
    return last.snapshot;
  };

  async function probe(label: string, request: Probe): Promise<Answer> {
    const method = request.method ?? "GET";
    const headers = new Headers(request.headers);
    if (request.owner) headers.set("cookie", ownerCookie);
    const body = request.body;
    if (body && !request.chunked) headers.set("content-length", String(body.byteLength));
    if (body && request.chunked) headers.set("transfer-encoding", "chunked");
    const init: RequestInit & { duplex?: "half" } = { method, headers };
    if (body) {
      init.body = request.chunked
        ? new ReadableStream({
            start(controller) {
              for (let i = 0; i < body.byteLength; i += 16_384)
                controller.enqueue(body.subarray(i, i + 16_384));
              controller.close();
            },
          })
        : body;
      if (request.chunked) init.duplex = "half";
    }
    const bindings = request.address
      ? { incoming: { socket: { remoteAddress: request.address } } }
      : undefined;

    // What the request carried, so that the body may repeat it without that counting as a leak.
    let carried = request.path;
    try {
      carried += ` ${decodeURIComponent(request.path)}`;
    } catch {
      // a deliberately malformed escape: the raw path stands for itself
    }
    if (body && body.byteLength < 4_000_000) carried += ` ${new TextDecoder().decode(body)}`;
    for (const [name, value] of headers) if (name !== "cookie") carried += ` ${value}`;
    echoes.push(normalize(carried));

    const t0 = performance.now();
    const before = await snapshot();
    const t1 = performance.now();
    const response = await app.request(request.path, init, bindings);
    const text = await response.text();
    const t2 = performance.now();
    const after = await snapshot();
    snapshotMs += performance.now() - t2 + (t1 - t0);
    const changed = TABLES.filter((t) => before[t] !== after[t]);

    const row = rows.get(label) ?? { sent: 0, statuses: new Map(), ms: 0 };
    row.sent++;
    row.ms += t2 - t1;
    row.statuses.set(response.status, (row.statuses.get(response.status) ?? 0) + 1);
    rows.set(label, row);

    const where = `${label}: ${method} ${request.path.slice(0, 160)} answered ${response.status}`;
    // (1) never a server error
    expect(response.status, `${where}\n${text.slice(0, 600)}`).toBeLessThan(500);
    // (4) our own request id on every answer
    const id = response.headers.get("x-request-id");
    expect(id ?? "(none)", `${where}: X-Request-Id`).toMatch(UUID);
    if (headers.has("x-request-id")) expect(id).not.toBe(headers.get("x-request-id"));
    // (3) nothing internal in the body
    for (const [what, pattern] of leaks) {
      const match = pattern.exec(text);
      if (!match) continue;
      const needle = normalize(match[0]);
      if (needle && echoes.some((e) => e.includes(needle))) continue;
      const context = text.slice(Math.max(0, match.index - 200), match.index + 200);
      expect.fail(`${where}, and its body holds ${what}: …${context}…`);
    }
    // (2) a refused request, and any read, changes nothing stored
    if (!UNSAFE.has(method) || response.status >= 400) {
      expect(changed, `${where}, yet changed ${changed.join(", ")}`).toEqual([]);
    } else {
      const allowed = request.mayChange ?? [];
      const unexpected = changed.filter((t) => !allowed.includes(t));
      expect(unexpected, `${where}, and changed ${unexpected.join(", ")}`).toEqual([]);
    }
    // Prototype pollution would reach this very process: the bundle runs in it.
    expect(Object.keys(Object.prototype), `${where}: Object.prototype`).toEqual([]);
    return { status: response.status, headers: response.headers, text, changed };
  }

  // The owner's session, signed in as a browser would.
  const signIn = await probe("POST /login (the owner signs in)", {
    method: "POST",
    path: "/login",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new TextEncoder().encode(new URLSearchParams({ password: OWNER_PASSWORD }).toString()),
    address: OWNER_ADDRESS,
    mayChange: ["sessions", "owner_devices"],
  });
  expect(signIn.status).toBe(302);
  ownerCookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
  expect(ownerCookie).toMatch(/^session=./);

  return {
    name: kind,
    database,
    get ownerCookie() {
      return ownerCookie;
    },
    probe,
    snapshot,
    sql,
    summary() {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const total = [...rows.values()].reduce((n, r) => n + r.sent, 0);
      const width = Math.max(...[...rows.keys()].map((k) => k.length));
      const lines = [...rows].map(([label, row]) => {
        const statuses = [...row.statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, n]) => `${status}×${n}`)
          .join(" ");
        const each = (row.ms / row.sent).toFixed(1);
        return `  ${label.padEnd(width)} ${String(row.sent).padStart(5)} ${each.padStart(6)} ms  ${statuses}`;
      });
      const logged = [...logs.events]
        .sort(([, a], [, b]) => b - a)
        .map(([event, n]) => `${event} ×${n}`)
        .join(", ");
      return [
        `${total} requests on ${kind} in ${seconds} s (${(snapshotMs / 1000).toFixed(1)} s of it fingerprinting tables); requests, mean time, statuses:`,
        ...lines,
        `  the server logged: ${logged || "nothing"}`,
        ...[...logs.errors].map((e) => `    ${e}`),
      ].join("\n");
    },
    async close() {
      logs.restore();
      await database.dispose();
    },
  };
}

export type Reply = { status: number; headers: Record<string, string>; body: Buffer };

/** One request over a real socket to a listening node:http server, as a client sends it. */
export function rawGet(
  server: Server,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<Reply> {
  const { port } = server.address() as AddressInfo;
  return new Promise<Reply>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) flat[name] = String(value);
        resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

// npm run bench:blog: server time of the blog list at 10 and 100,000 posts, on PGlite and on
// PostgreSQL (when TEST_DATABASE_URL is set). Requests go through the built site in-process
// (routing, loader, SQL, React rendering), one at a time, so the figures are server time
// without the network. A benchmark, not a test: it prints a table and asserts nothing.
//   --posts N   the large size (default 100000)   --runs N   timed requests per row (default 200)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "100000" },
    runs: { type: "string", default: "200" },
  },
});
const LARGE = Number(values.posts);
const RUNS = Number(values.runs);
const WARMUP = 20;
const SEARCH = "kubernetes";

const { openDatabase, parseEnv, createSiteApp } = await import(
  path.join(root, "build/server/index.js")
);

/**
 * N posts, one a minute. Six in every thousand mention the search word, so at both sizes a
 * search fills a page of 5 and has a second page, like the unfiltered list.
 */
const seedSql = (n) => `
  insert into blog_posts (title, description, content, created_at, updated_at)
  select 'Post ' || g || case when g % 1000 between 1 and 6 then ' on ${SEARCH}' else '' end,
         'Notes on ' || (array['postgres','redis','docker','node','rails'])[1 + g % 5] || ', part ' || g,
         '<h2>Part ' || g || '</h2><p>Body of post ' || g || ', with <strong>some</strong> text.</p>',
         timestamptz '2020-01-01 00:00:00+00' + g * interval '1 minute',
         timestamptz '2020-01-01 00:00:00+00' + g * interval '1 minute'
  from generate_series(1, ${n}) g`;

async function withDatabase(driver, fn) {
  if (driver === "pglite") {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-blog-"));
    const database = await openDatabase({ dataDir });
    try {
      return await fn(database);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const name = `bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: "" });
  try {
    return await fn(database);
  } finally {
    await database.close();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** One request, timed to the last byte of the body. */
async function once(app, url) {
  const start = performance.now();
  const response = await app.request(url);
  await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - start;
}

const ROUNDS = 10;

/**
 * Both sizes of one case, measured in alternating rounds, so whatever the machine does
 * meanwhile (JIT warm-up, other load) falls on both alike.
 */
async function compare(small, large) {
  const times = [[], []];
  const targets = [small, large];
  for (const [app, url] of targets) for (let i = 0; i < WARMUP; i++) await once(app, url);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, [app, url]] of targets.entries()) {
      for (let i = 0; i < RUNS / ROUNDS; i++) times[index].push(await once(app, url));
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { p50: percentile(list, 50), p95: percentile(list, 95) };
  });
}

async function seeded(database, size) {
  const start = performance.now();
  await database.migrate(path.join(root, "database/migrations"));
  await database.db.execute(seedSql(size));
  // A bulk load leaves what a live database's autovacuum would have tidied long since.
  await database.db.execute("vacuum analyze blog_posts");
  console.log(
    `${database.kind}: ${size} posts seeded in ${((performance.now() - start) / 1000).toFixed(1)} s`,
  );
  const env = parseEnv({ NODE_ENV: "production", DATA_DIR: "unused" });
  return createSiteApp({ env, database, root });
}

const drivers = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])];
if (!process.env.TEST_DATABASE_URL)
  console.log("PostgreSQL skipped: TEST_DATABASE_URL is not set.");
const rows = [];
for (const driver of drivers) {
  await withDatabase(driver, (smallDb) =>
    withDatabase(driver, async (largeDb) => {
      const small = await seeded(smallDb, 10);
      const large = await seeded(largeDb, LARGE);
      const middle = (size) => Math.ceil(Math.ceil(size / 5) / 2);
      const last = (size) => Math.ceil(size / 5);
      const cases = [
        ["page 1", () => "/blog"],
        ["middle page", (size) => `/blog?page=${middle(size)}`],
        ["last page", (size) => `/blog?page=${last(size)}`],
        [`search "${SEARCH}"`, () => `/blog?q=${SEARCH}`],
      ];
      for (const [label, url] of cases) {
        const [s10, sLarge] = await compare([small, url(10)], [large, url(LARGE)]);
        rows.push({ driver, label: `${label} (${url(LARGE)})`, small: s10, large: sLarge });
      }
    }),
  );
}

const fmt = (ms) => ms.toFixed(2);
console.log(
  `\n${RUNS} requests per row and size, one at a time, in ${ROUNDS} alternating rounds after ${WARMUP} warm-up; server time in ms.\n`,
);
console.log(
  `| database | request (at ${LARGE} posts) | 10 posts p50 | 10 posts p95 | ${LARGE} posts p50 | ${LARGE} posts p95 | p50 ratio |`,
);
console.log("|---|---|---:|---:|---:|---:|---:|");
for (const row of rows) {
  console.log(
    `| ${row.driver} | ${row.label} | ${fmt(row.small.p50)} | ${fmt(row.small.p95)} | ${fmt(row.large.p50)} | ${fmt(row.large.p95)} | ${(row.large.p50 / row.small.p50).toFixed(2)}× |`,
  );
}

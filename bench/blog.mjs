// npm run bench:blog: server time of the blog list, a tag's list and full-text searches at 10 and
// 100,000 posts, on PGlite and on
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
/** A word only some posts' bodies hold (never a title or description). */
const BODY_WORD = "flamegraph";
/** Each post has one of these tags, and every third post a second one. */
const TAGS = ["postgres", "redis", "docker", "node", "rails"];
const TAG = "postgres";
/** A published post whose one tag is TAG (id % 5 = 0, id % 3 != 0, id % 100 != 50). */
const TAGGED_POST = "post-50000";
/** A tag added to ten posts of the large database, to compare a tag's pages with TAG's. */
const SMALL_TAG = "ten";

const { openDatabase, parseEnv, createSiteApp } = await import(
  path.join(root, "build/server/index.js")
);

/**
 * N published posts, one a minute, with a slug each (made by the database from the title) and
 * their words indexed. Six in every thousand mention the search word in the title and six others
 * the body word in the body alone, so at both sizes a search fills a page of 5 and has a second
 * page, like the unfiltered list. Every post has a tag (a fifth of them "postgres"), every third
 * a second one (a fifth of those "postgres" again, so the tag holds 4/15 of the posts); a
 * hundredth of the posts are drafts, which no list shows. Inserted in batches:
 * each row's triggers (slug, search document, tag counts, the federation's and Webmentions'
 * jobs) make one statement of 10,000 outlast the driver's 5 s query timeout on PostgreSQL.
 */
const BATCH = 2_000;
const batches = (n) =>
  Array.from({ length: Math.ceil(n / BATCH) }, (_, i) => [
    i * BATCH + 1,
    Math.min(n, (i + 1) * BATCH),
  ]);
const seedSql = (n) => [
  ...batches(n).map(
    ([
      from,
      to,
    ]) => `insert into blog_posts (title, description, content, created_at, updated_at, status)
   select 'Post ' || g || case when g % 1000 between 1 and 6 then ' on ${SEARCH}' else '' end,
          'Notes on ' || (array['postgres','redis','docker','node','rails'])[1 + g % 5] || ', part ' || g,
          '<h2>Part ' || g || '</h2><p>Body of post ' || g || ', with <strong>some</strong> text.'
            || case when g % 1000 between 7 and 12 then ' Profiling it with a ${BODY_WORD}.' else '' end
            || '</p>',
          timestamptz '2020-01-01 00:00:00+00' + g * interval '1 minute',
          timestamptz '2020-01-01 00:00:00+00' + g * interval '1 minute',
          case when g % 100 = 50 then 'draft' else 'published' end
   from generate_series(${from}, ${to}) g`,
  ),
  ...batches(n).map(
    ([from, to]) => `insert into post_tags (post_id, tag, position)
   select id, (array[${TAGS.map((t) => `'${t}'`).join(",")}])[1 + id % 5], 0 from blog_posts
     where id between ${from} and ${to}
   union all
   select id, (array[${TAGS.map((t) => `'${t}'`).join(",")}])[1 + (id + 2) % 5], 1 from blog_posts
     where id % 3 = 0 and id between ${from} and ${to}`,
  ),
];

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
  for (const statement of seedSql(size)) await database.db.execute(statement);
  // A bulk load leaves what a live database's autovacuum would have tidied long since.
  await database.db.execute("vacuum analyze blog_posts");
  await database.db.execute("vacuum analyze post_tags");
  await database.db.execute("vacuum analyze post_slugs");
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
const postRows = [];
const tagRows = [];
for (const driver of drivers) {
  await withDatabase(driver, (smallDb) =>
    withDatabase(driver, async (largeDb) => {
      const small = await seeded(smallDb, 10);
      const large = await seeded(largeDb, LARGE);
      const published = (size) => size - Math.floor((size + 50) / 100);
      const pages = (count) => Math.ceil(count / 5);
      const cases = [
        ["page 1", () => "/blog"],
        ["middle page", (size) => `/blog?page=${Math.ceil(pages(published(size)) / 2)}`],
        ["last page", (size) => `/blog?page=${pages(published(size))}`],
        [`tag page 1`, () => `/blog/tags/${TAG}`],
        [`tag last page`, (size) => `/blog/tags/${TAG}?page=${tagPages.get(size)}`],
        [`search, a title word`, () => `/blog?q=${SEARCH}`],
        [`search, a body word`, () => `/blog?q=${BODY_WORD}`],
        [
          `search, a phrase and a prefix`,
          () => `/blog?q=${encodeURIComponent('"some text" kube*')}`,
        ],
      ];
      // A tag's last page, counted from the seeded rows themselves.
      const tagPages = new Map();
      for (const [size, db] of [
        [10, smallDb],
        [LARGE, largeDb],
      ]) {
        const { rows } = await db.db.execute(
          `select count(*)::int as n from post_tags where tag = '${TAG}' and listed_at is not null`,
        );
        tagPages.set(size, Math.max(1, pages(rows[0].n)));
      }
      for (const [label, url] of cases) {
        const [s10, sLarge] = await compare([small, url(10)], [large, url(LARGE)]);
        rows.push({ driver, label: `${label} (${url(LARGE)})`, small: s10, large: sLarge });
      }
      // A tag's first and last page among LARGE posts: the big tag against one holding ten.
      await largeDb.db.execute(
        `insert into post_tags (post_id, tag, position)
         select id, '${SMALL_TAG}', 2 from blog_posts where status = 'published' order by id desc limit 10`,
      );
      const bigLast = tagPages.get(LARGE);
      for (const [label, big, small] of [
        ["page 1", `/blog/tags/${TAG}`, `/blog/tags/${SMALL_TAG}`],
        ["last page", `/blog/tags/${TAG}?page=${bigLast}`, `/blog/tags/${SMALL_TAG}?page=2`],
      ]) {
        const [bigTimes, smallTimes] = await compare([large, big], [large, small]);
        tagRows.push({
          driver,
          label,
          big: bigTimes,
          small: smallTimes,
          bigUrl: big,
          smallUrl: small,
        });
      }
      // A post's page (related posts at its foot), uncached: one with the big tag against one
      // with no tag at all, both among LARGE posts.
      await largeDb.db.execute(
        `insert into blog_posts (title, description, content, status)
         values ('Untagged note', 'A post with no tag', '<p>No tag here.</p>', 'published')`,
      );
      const [tagged, untagged] = await compare(
        [large, `/blog/${TAGGED_POST}`],
        [large, "/blog/untagged-note"],
      );
      postRows.push({ driver, tagged, untagged });
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

console.log(
  `\nA tag's pages at ${LARGE} posts: ${TAG} (a quarter of the posts) against ${SMALL_TAG} (ten posts, two pages); server time in ms.\n`,
);
console.log(
  `| database | page | ${TAG} p50 | ${TAG} p95 | ${SMALL_TAG} p50 | ${SMALL_TAG} p95 | p50 ratio |`,
);
console.log("|---|---|---:|---:|---:|---:|---:|");
for (const row of tagRows) {
  console.log(
    `| ${row.driver} | ${row.label} (\`${row.bigUrl}\` vs \`${row.smallUrl}\`) | ${fmt(row.big.p50)} | ${fmt(row.big.p95)} | ${fmt(row.small.p50)} | ${fmt(row.small.p95)} | ${(row.big.p50 / row.small.p50).toFixed(2)}× |`,
  );
}

console.log(
  `\nA post's page at ${LARGE} posts, uncached (related posts at its foot): one whose tag ${TAG} holds about a quarter of the posts, against one with no tag; server time in ms.\n`,
);
console.log("| database | tagged p50 | tagged p95 | untagged p50 | untagged p95 | p50 ratio |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const row of postRows) {
  console.log(
    `| ${row.driver} | ${fmt(row.tagged.p50)} | ${fmt(row.tagged.p95)} | ${fmt(row.untagged.p50)} | ${fmt(row.untagged.p95)} | ${(row.tagged.p50 / row.untagged.p50).toFixed(2)}× |`,
  );
}

// npm run bench:autosave: what the editor's autosave costs the server, the database and the
// network. A benchmark, not a test: it prints tables and asserts nothing. Each case runs beside
// a reference in the same run, in alternating rounds.
//
// 1. Autosaving a published 20,000-word post (prose in paragraphs under headings, a few code
//    blocks), each autosave changing a few words somewhere as typing does, against the same on a
//    500-word post. POST /api/posts/{id}/autosave: sanitize the content (highlighting waits for a save), then in
//    one transaction lock the post, check the base revision, count the words changed, diff the
//    text against the post's base text and store the delta (the run's autosaves all come within
//    10 minutes, so each replaces the last, as in an editing session). Through the built site
//    in-process, as the owner, one request at a time, on a new PGlite database, and on a new
//    PostgreSQL database too when DATABASE_URL is set (created here on that server, dropped at
//    the end). The npm script runs this without the server's V8 flags (server/node-flags.mjs):
//    PGlite's WebAssembly is optimised here, as it is not in production. Beside each case, the
//    event loop's longest stall in each request: the maximum of a monitorEventLoopDelay
//    histogram of its own, sampling every millisecond (an idle loop reads about 1 ms), which
//    ticks once before the request (a new histogram counts nothing before its first tick; one
//    enabled again would count the time it was off). Then /healthz, asked by a concurrent loop
//    every 2 ms and timed from when each probe was due (so waiting for a blocked event loop
//    counts), while 20,000-word autosaves run back to back, against as long a time with
//    nothing else.
// 2. Storage: the bytes of post_revisions and post_revision_bases (pg_total_relation_size)
//    after --revisions revisions of a 5,000-word post, each changing a few words, against the
//    same texts stored whole: their bytes, and the size of a scratch table holding them (TOAST
//    compresses each). The revisions are Update Post saves (PUT /api/posts/{id}): autosaves
//    within 10 minutes of each other coalesce into one revision.
// 3. Autosave traffic of steady typing in a real Chromium: the production server (node
//    server.js) on a scratch data directory, the owner signed in through /login, the editor of
//    a published 5,000-word post opened under Playwright's fake clock (paused once the editor
//    has loaded, then moved on by the bench), and one 5-letter word and a space typed at the end
//    of the text each second of clock time for --minutes. Each word
//    waits for an autosave under way to be answered, as it would be on a server answering
//    within a second. Counted: the autosave requests and their bodies' bytes each way (as sent,
//    before any compression). Reference: a new, empty post typed from scratch. Then whether the
//    server holds every typed word, in order (the editor page as the owner gets it). With
//    --slow-answers, a third row: the 5,000-word post typed a key at a time (six a second), each
//    autosave's answer held back until the next key is typed, as on a slower server or network.
//   --runs N       autosaves per case in 1 (default 100)
//   --revisions N  revisions in 2 (default 500)
//   --minutes N    minutes of clock time typed in 3 (default 10)
//   --slow-answers N  minutes typed for that third row (default 0: not run)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { chromium } from "@playwright/test";
import { sql } from "drizzle-orm";
import pg from "pg";

import { NODE_ENV_SETTINGS, NODE_FLAGS } from "../server/node-flags.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "100" },
    revisions: { type: "string", default: "500" },
    minutes: { type: "string", default: "10" },
    "slow-answers": { type: "string", default: "0" },
  },
});
const RUNS = Number(values.runs);
const REVISIONS = Number(values.revisions);
const MINUTES = Number(values.minutes);
const SLOW_ANSWERS = Number(values["slow-answers"]);
const PASSWORD = "bench-owner-password";
const WINDOW_ID = "bench-autosave-window";
const PROBE_EVERY_MS = 2;
/** Autosaves back to back while /healthz is probed. */
const BUSY_RUNS = Math.ceil(RUNS / 2);
const DATABASE_URL = process.env.DATABASE_URL;

const { openDatabase, parseEnv, createSiteApp, setOwnerPassword } = await import(
  path.join(root, "build/server/index.js")
);
const { applyDelta } = await import(path.join(root, "app/features/posts/revisions/delta.ts"));

// ---------------------------------------------------------------------------------------------
// Posts: prose the same on every run (a seeded generator), edited a few words at a time.

/** mulberry32: a small seeded generator. */
function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = (
  "the a of to and in that is for it with as on this be by are we was not but or from at " +
  "which when what one all can more so if about there their will would into then than its our " +
  "only also each after other first time because most these how where while every before " +
  "server request database query index table cache page post writer reader editor browser " +
  "process memory thread queue worker deploy release build test latency throughput column row " +
  "transaction lock commit migration schema backup restore replica connection pool timeout " +
  "retry error failure metric trace log alert budget target benchmark profile flamegraph " +
  "function module package dependency version compiler runtime garbage heap stack event loop " +
  "promise callback stream buffer socket header body response status network packet " +
  "simple small large slow fast cheap costly careful honest clear plain steady quiet " +
  "measure change keep drop write read save load start stop wait grow shrink count compare " +
  "learned noticed found tried decided moved replaced removed added kept wrote read showed"
).split(" ");

const CODE_SAMPLES = [
  [
    "typescript",
    "export async function retry<T>(task: () => Promise<T>, attempts = 3): Promise<T> {\n" +
      "  let last: unknown;\n  for (let i = 0; i < attempts; i++) {\n    try {\n" +
      "      return await task();\n    } catch (error) {\n      last = error;\n" +
      "      await new Promise((r) => setTimeout(r, 2 ** i * 100));\n    }\n  }\n  throw last;\n}",
  ],
  [
    "sql",
    "select p.id, p.title, count(c.id) as comments\nfrom posts p\n" +
      "left join comments c on c.post_id = p.id\nwhere p.published_at <= now()\n" +
      "group by p.id\norder by comments desc, p.id\nlimit 20;",
  ],
  [
    "python",
    "from dataclasses import dataclass\n\n@dataclass\nclass Order:\n    id: int\n" +
      "    total: float = 0.0\n\n    def add(self, price: float, qty: int = 1) -> None:\n" +
      "        self.total += price * qty",
  ],
  [
    "bash",
    'set -euo pipefail\nfor host in "$@"; do\n  ssh "$host" systemctl restart app\n' +
      '  curl -fsS "https://$host/healthz" > /dev/null\ndone',
  ],
  [
    "yaml",
    "services:\n  api:\n    image: ghcr.io/me/api:1.4.2\n    environment:\n" +
      "      DATABASE_URL: postgres://api@db/api\n    ports: ['8080:8080']",
  ],
];

const escapeHtml = (text) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * A post as the editor holds it: headings, paragraphs (a word here and there in bold or as
 * code) and a code block every 2,500 words or so (one in the middle of a shorter post); `words`
 * of prose in all, ending on a paragraph. Edits insert or replace a few words in a paragraph
 * picked at random.
 */
class Post {
  constructor(words, seed) {
    this.random = seeded(seed);
    this.blocks = [];
    let count = 0;
    let sinceHeading = 0;
    let sinceCode = 0;
    let codes = 0;
    while (count < words) {
      if (sinceHeading === 0) {
        const heading = this.phrase(3 + this.int(5));
        heading[0] = capital(heading[0]);
        this.blocks.push({ tag: "h2", words: heading });
        count += heading.length;
      }
      const paragraph = [];
      for (let sentences = 2 + this.int(4); sentences > 0; sentences--) {
        const sentence = this.phrase(7 + this.int(16));
        sentence[0] = capital(sentence[0]);
        sentence[sentence.length - 1] += ".";
        paragraph.push(...sentence);
      }
      const extra = Math.max(0, count + paragraph.length - words);
      paragraph.splice(paragraph.length - extra - 1, extra);
      this.blocks.push({ tag: "p", words: paragraph });
      count += paragraph.length;
      sinceHeading = (sinceHeading + 1) % (5 + this.int(5));
      sinceCode += paragraph.length;
      if (sinceCode >= Math.min(2500, words / 2) && count < words - 100) {
        const [language, code] = CODE_SAMPLES[codes++ % CODE_SAMPLES.length];
        this.blocks.push({ tag: "pre", language, code });
        sinceCode = 0;
      }
    }
  }

  int(n) {
    return Math.floor(this.random() * n);
  }

  phrase(n) {
    return Array.from({ length: n }, () => {
      const word = VOCABULARY[this.int(VOCABULARY.length)];
      const style = this.random();
      if (style < 0.01) return `<code>${word}</code>`;
      if (style < 0.02) return `<strong>${word}</strong>`;
      return word;
    });
  }

  /** A few words typed somewhere: two to four inserted, or one to three replaced. */
  edit() {
    const paragraphs = this.blocks.filter((block) => block.tag === "p");
    const { words } = paragraphs[this.int(paragraphs.length)];
    const at = this.int(words.length);
    const typed = this.phrase(2 + this.int(3));
    words.splice(at, this.random() < 0.5 ? 0 : this.int(3) + 1, ...typed);
  }

  html() {
    return this.blocks
      .map((block) =>
        block.tag === "pre"
          ? `<pre><code class="language-${block.language}">${escapeHtml(block.code)}</code></pre>`
          : `<${block.tag}>${block.words.join(" ")}</${block.tag}>`,
      )
      .join("");
  }
}

const capital = (word) =>
  word.startsWith("<") ? word : word.charAt(0).toUpperCase() + word.slice(1);

// ---------------------------------------------------------------------------------------------
// Figures.

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const summary = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1),
  };
};
/** The event loop's delay, in ms, from a monitorEventLoopDelay histogram (nanoseconds). */
const loopDelay = (histogram) => ({
  p99: histogram.percentile(99) / 1e6,
  max: histogram.max / 1e6,
});
const fmt = (n, digits = 1) => n.toFixed(digits);
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The site in-process, on a database of its own.

/** A new PGlite database in a scratch directory, or a new database on DATABASE_URL's server. */
async function withDatabase(driver, fn) {
  if (driver === "pglite") {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-autosave-"));
    const database = await openDatabase({ dataDir });
    try {
      return await fn(database);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const name = `bench_autosave_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: "" });
  try {
    return await fn(database);
  } finally {
    await database.close();
    // The pool's last connections may still be closing; FORCE would end them with an error.
    for (let i = 0; i < 40; i++) {
      const { rows } = await admin.query(
        "select count(*)::int as n from pg_stat_activity where datname = $1",
        [name],
      );
      if (rows[0].n === 0) break;
      await sleep(50);
    }
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

/** The built site on `database`, migrated, with the owner signed in. */
async function ownerSite(database) {
  await database.migrate(path.join(root, "database/migrations"));
  await setOwnerPassword(database.db, PASSWORD);
  const env = parseEnv({
    NODE_ENV: "production",
    DATA_DIR: "unused",
    SITE_URL: "http://localhost",
  });
  const app = createSiteApp({ env, database, root });
  const signIn = await app.request("http://localhost/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
    body: new URLSearchParams({ password: PASSWORD }).toString(),
  });
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
  if (signIn.status !== 302 || !cookie) throw new Error(`sign-in answered ${signIn.status}`);
  const headers = {
    cookie,
    origin: "http://localhost",
    "content-type": "application/json",
    "x-editor-window": WINDOW_ID,
  };

  /** Sends JSON as the owner; the answer's JSON, or a throw when the status is not `expected`. */
  async function send(method, url, body, expected) {
    const response = await app.request(`http://localhost${url}`, {
      method,
      headers,
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) {
      throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
    }
    return JSON.parse(text);
  }

  /** A published post: `words` words of prose, its state for the saves that follow. */
  async function publish(title, words, seed) {
    const post = new Post(words, seed);
    const created = await send(
      "POST",
      "/api/posts",
      { title, description: "", content: post.html(), publish: { mode: "now" } },
      201,
    );
    return { title, post, id: created.id, slug: created.slug, revision: created.revision };
  }

  /** One autosave of `state` with a few words changed, timed to the answer's last byte. */
  async function autosave(state) {
    state.post.edit();
    const body = JSON.stringify({
      baseRevision: state.revision,
      title: state.title,
      description: "",
      content: state.post.html(),
      slug: state.slug,
      tags: "",
      publish: { mode: "keep" },
    });
    const start = performance.now();
    const response = await app.request(`http://localhost/api/posts/${state.id}/autosave`, {
      method: "POST",
      headers,
      body,
    });
    const text = await response.text();
    const ms = performance.now() - start;
    if (response.status !== 200) throw new Error(`autosave answered ${response.status}: ${text}`);
    state.revision = JSON.parse(text).revision;
    return ms;
  }

  /** Update Post with a few words changed. */
  async function update(state) {
    state.post.edit();
    const answer = await send(
      "PUT",
      `/api/posts/${state.id}`,
      {
        baseRevision: state.revision,
        title: state.title,
        description: "",
        content: state.post.html(),
      },
      200,
    );
    state.revision = answer.revision;
  }

  return { app, publish, autosave, update };
}

/**
 * /healthz asked every PROBE_EVERY_MS while `during` runs; each probe is timed from when it was
 * due (the previous answer plus the pause), so a probe held up by a blocked event loop counts
 * the wait, as a client's request would.
 */
async function probeHealth(app, during) {
  const times = [];
  let running = true;
  const probing = (async () => {
    let due = performance.now();
    while (running) {
      const response = await app.request("http://localhost/healthz");
      await response.arrayBuffer();
      const end = performance.now();
      if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
      times.push(end - due);
      due = end + PROBE_EVERY_MS;
      await sleep(PROBE_EVERY_MS);
    }
  })();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await sleep(PROBE_EVERY_MS);
  try {
    await during();
    // The histogram's timer sees the last stall once the loop turns again.
    await sleep(PROBE_EVERY_MS);
  } finally {
    running = false;
    histogram.disable();
    await probing;
  }
  return { ...summary(times), loop: loopDelay(histogram) };
}

/** Table 1 on one database: the two cases in alternating rounds, then /healthz. */
async function latency(database) {
  const site = await ownerSite(database);
  const large = await site.publish("Twenty thousand words", 20_000, 1);
  const small = await site.publish("Five hundred words", 500, 2);
  const words = { large: 20_000, small: 500 };
  const bytes = { large: large.post.html().length, small: small.post.html().length };
  // The first autosave after start also loads the highlighter: one of each, untimed.
  await site.autosave(large);
  await site.autosave(small);
  const times = { large: [], small: [] };
  const stalls = { large: [], small: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const [name, state] of [
      ["large", large],
      ["small", small],
    ]) {
      const histogram = monitorEventLoopDelay({ resolution: 1 });
      histogram.enable();
      // A new histogram's first tick only starts its count: the stall must come after it.
      await sleep(2);
      times[name].push(await site.autosave(state));
      // In-process, a request may never leave the event loop (no socket; PGlite's queries run
      // on this thread): the histogram's timer sees the stall once the loop turns again.
      await sleep(2);
      histogram.disable();
      stalls[name].push(histogram.max / 1e6);
    }
  }
  const rows = ["large", "small"].map((name) => ({
    words: words[name],
    bytes: bytes[name],
    ...summary(times[name]),
    stall: summary(stalls[name]),
  }));

  const started = performance.now();
  const busy = await probeHealth(site.app, async () => {
    for (let i = 0; i < BUSY_RUNS; i++) {
      await site.autosave(large);
      // Between requests the loop turns, as it does while a server reads the next one.
      await new Promise(setImmediate);
    }
  });
  const busyMs = performance.now() - started;
  const idle = await probeHealth(site.app, () => sleep(busyMs));
  return { driver: database.kind, rows, busy, idle, busyMs };
}

/** Table 2 on one database. */
async function storage(database) {
  const site = await ownerSite(database);
  const state = await site.publish("Five thousand words", 5000, 3);
  for (let i = 1; i < REVISIONS; i++) await site.update(state);
  const { db } = database;
  const rowsOf = async (query) => (await db.execute(query)).rows;
  const [sizes] = await rowsOf(sql`
    select pg_total_relation_size('post_revisions')::bigint as revisions,
           pg_total_relation_size('post_revision_bases')::bigint as bases,
           (select count(*) from post_revisions)::int as revision_count,
           (select count(*) from post_revision_bases)::int as base_count`);
  // Every revision's text made whole again, as the History panel reads it.
  const texts = (
    await rowsOf(sql`
      select b.content as base, r.delta
      from post_revisions r join post_revision_bases b on b.id = r.base_id
      where r.post_id = ${state.id} order by r.id`)
  ).map(({ base, delta }) => (delta ? applyDelta(base, delta) : base));
  await db.execute(sql`create table bench_whole_texts (id serial primary key, content text)`);
  for (const text of texts) {
    await db.execute(sql`insert into bench_whole_texts (content) values (${text})`);
  }
  const [whole] = await rowsOf(
    sql`select pg_total_relation_size('bench_whole_texts')::bigint as bytes`,
  );
  await db.execute(sql`drop table bench_whole_texts`);
  return {
    driver: database.kind,
    revisions: sizes.revision_count,
    bases: sizes.base_count,
    stored: Number(sizes.revisions) + Number(sizes.bases),
    wholeBytes: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
    toastBytes: Number(whole.bytes),
  };
}

// ---------------------------------------------------------------------------------------------
// Table 3: Chromium against the production server.

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env };
  // Its own embedded database, and no mail.
  for (const name of ["DATABASE_URL", "SMTP_URL", "RESEND_API_KEY"]) delete env[name];
  Object.assign(env, {
    ...NODE_ENV_SETTINGS,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    SITE_URL: base,
    SEED_DEMO: "false",
    OWNER_PASSWORD: PASSWORD,
  });
  const child = spawn(process.execPath, [...NODE_FLAGS, "server.js"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 600) {
      child.kill();
      throw new Error(`the server did not start; it printed:\n${output}`);
    }
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return {
    base,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Counts the page's autosave requests under way: the editor sends them with fetch and reads
 * each answer with json(), and it has taken the answer in once that settles.
 */
const COUNT_AUTOSAVES = () => {
  const send = window.fetch;
  window.__autosavesUnderWay = 0;
  const done = () => window.__autosavesUnderWay--;
  window.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input.url;
    if (!url.includes("/autosave")) return send(input, init);
    window.__autosavesUnderWay++;
    return send(input, init).then(
      (response) => {
        const json = response.json.bind(response);
        response.json = () => json().finally(done);
        return response;
      },
      (error) => {
        done();
        throw error;
      },
    );
  };
};

/** The i-th typed word: five letters no generated post holds, each word once. */
const typedWord = (i) => {
  const letters = "bcdfghjklmnpqrstvwxz";
  let word = "";
  for (let n = i, k = 0; k < 4; k++, n = Math.floor(n / letters.length)) {
    word = letters[n % letters.length] + word;
  }
  return `q${word}`;
};

/**
 * Types in the editor at `url` (a published post's, or a new post's) for `minutes` of the page's
 * fake clock, one word and a space a second at the end of the text, and counts the autosaves.
 * With `holdAnswers`, keys are typed one at a time and each autosave's answer is held until the
 * next key is typed (a server or network slower than the typing); otherwise each word waits for
 * the answer of an autosave under way.
 */
async function typeSteadily(owner, url, { minutes, title = null, holdAnswers = false }) {
  // A context of its own: the fake clock is the context's.
  const context = await owner.browser.newContext({
    baseURL: owner.base,
    storageState: owner.storageState,
  });
  const page = await context.newPage();
  await page.addInitScript(COUNT_AUTOSAVES);
  await page.clock.install();
  const requests = [];
  const measuring = [];
  page.on("requestfinished", (request) => {
    if (!request.url().includes("/autosave")) return;
    measuring.push(
      (async () => {
        const response = await request.response();
        const answer = (await response?.body().catch(() => null)) ?? Buffer.alloc(0);
        requests.push({
          up: request.postDataBuffer()?.length ?? 0,
          down: answer.length,
          status: response?.status() ?? 0,
          answer: answer.toString(),
        });
      })(),
    );
  });
  page.on("requestfailed", (request) => {
    if (request.url().includes("/autosave")) requests.push({ up: 0, down: 0, status: 0 });
  });
  const held = [];
  let holding = holdAnswers;
  if (holdAnswers) {
    await page.route("**/autosave", async (route) => {
      const response = await route.fetch();
      if (holding) await new Promise((resolve) => held.push(resolve));
      await route.fulfill({ response });
    });
  }
  await page.goto(url);
  const editor = page.getByRole("textbox", { name: "Content *" });
  if (title) await page.getByLabel("Title *").fill(title);
  await editor.click();
  await page.keyboard.press("Control+End");
  // The fake clock has run with real time while the page loaded; from here it moves only as
  // told, so the real time Chromium takes to handle a key is no time on the page's clock.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);

  const answered = async () => {
    while (await page.evaluate(() => window.__autosavesUnderWay > 0)) await sleep(5);
  };
  const typed = [];
  const started = performance.now();
  // The real time the page takes to handle a key (Playwright waits for each key's events).
  let keyMs = 0;
  const type = async (text) => {
    const start = performance.now();
    await page.keyboard.type(text);
    keyMs += performance.now() - start;
  };
  // Six keys (a word and a space) a second: the clock time at the n-th key.
  const keyAt = (n) => Math.round((n * 1000) / 6);
  let keys = 0;
  for (let second = 0; second < minutes * 60; second++) {
    const word = typedWord(typed.length);
    typed.push(word);
    if (holdAnswers) {
      for (const key of `${word} `) {
        await type(key);
        for (const release of held.splice(0)) release();
        await page.clock.runFor(keyAt(keys + 1) - keyAt(keys));
        keys++;
      }
    } else {
      await answered();
      await type(`${word} `);
      await page.clock.runFor(1000);
    }
  }
  holding = false;
  for (const release of held.splice(0)) release();
  // Typing stops: the last autosave follows, 3 s later.
  for (let i = 0; i < 3; i++) {
    await answered();
    await page.clock.runFor(5000);
  }
  await answered();
  const realSeconds = (performance.now() - started) / 1000;
  await Promise.all(measuring);
  const created = requests.map((r) => /"id":(\d+)/.exec(r.answer ?? "")?.[1]).find(Boolean);
  const id = /\/blog\/(\d+)\/edit/.exec(url)?.[1] ?? created;
  await page.close();

  // What the server holds: the editor page, as the owner opens it next.
  const html = await (await context.request.get(`/blog/${id}/edit`)).text();
  let at = 0;
  let missing = 0;
  for (const word of typed) {
    const found = html.indexOf(word, at);
    if (found === -1) missing++;
    else at = found + word.length;
  }
  await context.close();
  return {
    minutes,
    requests: requests.length,
    failed: requests.filter((r) => r.status < 200 || r.status > 299).length,
    up: requests.reduce((sum, r) => sum + r.up, 0),
    down: requests.reduce((sum, r) => sum + r.down, 0),
    maxUp: Math.max(0, ...requests.map((r) => r.up)),
    words: typed.length,
    missing,
    msPerKey: keyMs / (typed.length * 6),
    realSeconds,
  };
}

async function traffic() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-autosave-server-"));
  const server = await startServer(dataDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const context = await browser.newContext({ baseURL: server.base });
    const login = await context.newPage();
    await login.goto("/login?redirectTo=%2Fadmin%2Fposts");
    await login.getByLabel("Password").fill(PASSWORD);
    await login.getByRole("button", { name: "Sign in" }).click();
    await login.waitForURL("**/admin/posts");
    const created = await login.request.post("/api/posts", {
      data: {
        title: "Five thousand words",
        description: "",
        content: new Post(5000, 4).html(),
        publish: { mode: "now" },
      },
    });
    if (created.status() !== 201) throw new Error(`POST /api/posts answered ${created.status()}`);
    const { id } = await created.json();
    const owner = { browser, base: server.base, storageState: await context.storageState() };
    await context.close();
    const rows = [
      {
        label: "published, 5,000 words",
        ...(await typeSteadily(owner, `/blog/${id}/edit`, { minutes: MINUTES })),
      },
      {
        label: "new, typed from scratch (reference)",
        ...(await typeSteadily(owner, "/blog/new", {
          minutes: MINUTES,
          title: "Typed from scratch",
        })),
      },
    ];
    if (SLOW_ANSWERS > 0) {
      rows.push({
        label: "published, 5,000 words, each answer after the next key",
        ...(await typeSteadily(owner, `/blog/${id}/edit`, {
          minutes: SLOW_ANSWERS,
          holdAnswers: true,
        })),
      });
    }
    return rows;
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

const drivers = ["pglite", ...(DATABASE_URL ? ["postgres"] : [])];
if (!DATABASE_URL) console.log("PostgreSQL skipped: DATABASE_URL is not set.");
const latencies = [];
const storages = [];
for (const driver of drivers) {
  latencies.push(await withDatabase(driver, latency));
  storages.push(await withDatabase(driver, storage));
}
const typing = await traffic();

console.log(
  `\nAutosave latency (POST /api/posts/{id}/autosave of a published post, a few words changed ` +
    `each time), ${RUNS} autosaves per case in alternating rounds, ms; the event loop's ` +
    `longest stall in each autosave, ms:\n`,
);
console.log(
  "| database | post | HTML bytes | p50 | p95 | max | stall p50 | stall p95 | stall max |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
for (const { driver, rows } of latencies) {
  for (const [i, row] of rows.entries()) {
    const label = `${row.words.toLocaleString("en")} words${i === 1 ? " (reference)" : ""}`;
    console.log(
      `| ${driver} | ${label} | ${row.bytes} | ${fmt(row.p50)} | ${fmt(row.p95)} | ` +
        `${fmt(row.max)} | ${fmt(row.stall.p50)} | ${fmt(row.stall.p95)} | ${fmt(row.stall.max)} |`,
    );
  }
}
console.log(
  `\n/healthz asked every ${PROBE_EVERY_MS} ms by a concurrent loop, ms from when each probe ` +
    `was due; the event loop's delay over the period, ms:\n`,
);
console.log("| database | period | probes | p50 | p99 | max | loop delay p99 | loop delay max |");
console.log("|---|---|---:|---:|---:|---:|---:|---:|");
for (const { driver, busy, idle, busyMs } of latencies) {
  for (const [label, row] of [
    [`${BUSY_RUNS} autosaves of the 20,000-word post back to back (${fmt(busyMs / 1000)} s)`, busy],
    ["nothing else running, as long (reference)", idle],
  ]) {
    console.log(
      `| ${driver} | ${label} | ${row.count} | ${fmt(row.p50, 2)} | ${fmt(row.p99, 2)} | ` +
        `${fmt(row.max)} | ${fmt(row.loop.p99)} | ${fmt(row.loop.max)} |`,
    );
  }
}
console.log(
  `\nStorage of ${REVISIONS} revisions of a 5,000-word post (Update Post, a few words changed ` +
    `each time), bytes:\n`,
);
console.log(
  "| database | revisions | bases | post_revisions + post_revision_bases | texts whole | " +
    "texts whole in a table (TOAST) | stored / whole | stored / TOAST |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const row of storages) {
  console.log(
    `| ${row.driver} | ${row.revisions} | ${row.bases} | ${row.stored} (${kB(row.stored)}) | ` +
      `${row.wholeBytes} (${kB(row.wholeBytes)}) | ${row.toastBytes} (${kB(row.toastBytes)}) | ` +
      `${fmt((100 * row.stored) / row.wholeBytes)}% | ` +
      `${fmt((100 * row.stored) / row.toastBytes)}% |`,
  );
}
console.log(
  `\nAutosave traffic of steady typing (a 5-letter word and a space a second, at the end of ` +
    `the text) in Chromium under a fake clock; request and response bodies, bytes:\n`,
);
console.log(
  "| post | minutes | words typed | autosaves | a minute | failed | up | down | mean up | " +
    "max up | mean down | every typed word on the server, in order | real ms a key |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|");
for (const row of typing) {
  const n = Math.max(1, row.requests);
  console.log(
    `| ${row.label} | ${row.minutes} | ${row.words} | ${row.requests} | ` +
      `${fmt(row.requests / row.minutes)} | ${row.failed} | ${row.up} (${kB(row.up)}) | ` +
      `${row.down} | ${Math.round(row.up / n)} | ${row.maxUp} | ${Math.round(row.down / n)} | ` +
      `${row.missing === 0 ? "yes" : `no: ${row.missing} missing`} | ${fmt(row.msPerKey)} |`,
  );
}
const load = os
  .loadavg()
  .map((n) => n.toFixed(2))
  .join(" ");
console.log(
  `\n- typing took ${typing.map((row) => `${fmt(row.realSeconds)} s`).join(", ")} of real ` +
    "time; real ms a key: how long Chromium took to handle each key's events (Playwright waits)" +
    `\n- node ${process.version}; ${os.cpus().length} CPUs; load average ${load}`,
);
// Nothing is left to wait for; exit rather than on whatever handle a library keeps open.
process.exit();

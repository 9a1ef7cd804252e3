// npm run bench:writing: what writing a post costs the server. Requests go through the built
// site in-process on a new PGlite database, as the owner, one at a time. A benchmark, not a test:
// it prints tables and asserts nothing. Each case runs beside a reference in alternating rounds.
//
// 1. Saving a post with 20 code blocks (POST /api/posts: sanitize, highlight with Shiki, store),
//    against the same text with no code block (sanitize and store only). The first save after
//    start also loads the highlighter and warms every grammar: shown on its own.
// 2. The image pipeline (POST /api/images: type check, decode, WebP at four widths, JPEG
//    fallback, store) for a 4000×3000 JPEG, against a 1600×1200 one (no downscale).
//   --runs N   timed requests per case (default 20)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { photo } from "./photo.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { runs: { type: "string", default: "20" } } });
const RUNS = Number(values.runs);
const PASSWORD = "bench-owner-password";

const { openDatabase, parseEnv, createSiteApp, setOwnerPassword } = await import(
  path.join(root, "build/server/index.js")
);

const SAMPLES = {
  typescript: [
    "export async function retry<T>(task: () => Promise<T>, attempts = 3): Promise<T> {",
    "  let last: unknown;",
    "  for (let i = 0; i < attempts; i++) {",
    "    try {",
    "      return await task();",
    "    } catch (error) {",
    "      last = error;",
    "      await new Promise((r) => setTimeout(r, 2 ** i * 100));",
    "    }",
    "  }",
    "  throw last;",
    "}",
  ],
  sql: [
    "select p.id, p.title, count(c.id) as comments",
    "from posts p",
    "left join comments c on c.post_id = p.id",
    "where p.published_at <= now() and p.title ilike '%kafka%'",
    "group by p.id",
    "order by comments desc, p.id",
    "limit 20 offset 40;",
  ],
  python: [
    "from dataclasses import dataclass",
    "",
    "@dataclass",
    "class Order:",
    "    id: int",
    "    total: float = 0.0",
    "",
    "    def add(self, price: float, qty: int = 1) -> None:",
    '        """Adds a line."""',
    "        self.total += price * qty",
  ],
  go: [
    "func handler(w http.ResponseWriter, r *http.Request) {",
    "\tctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)",
    "\tdefer cancel()",
    "\tif err := db.PingContext(ctx); err != nil {",
    '\t\thttp.Error(w, "unavailable", http.StatusServiceUnavailable)',
    "\t\treturn",
    "\t}",
    '\tfmt.Fprintln(w, "ok")',
    "}",
  ],
  yaml: [
    "services:",
    "  api:",
    "    image: ghcr.io/me/api:1.4.2",
    "    environment:",
    "      DATABASE_URL: postgres://api@db/api",
    "    ports: ['8080:8080']",
    "    depends_on: [db]",
  ],
};

const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const languages = Object.keys(SAMPLES);
const blocks = Array.from({ length: 20 }, (_, i) => {
  const language = languages[i % languages.length];
  return { language, code: SAMPLES[language].join("\n") };
});
const withCode = blocks
  .map(
    ({ language, code }, i) =>
      `<h2>Step ${i + 1}</h2><p>What this ${language} does.</p><pre><code class="language-${language}">${escape(code)}</code></pre>`,
  )
  .join("");
const withoutCode = blocks
  .map(
    ({ language, code }, i) =>
      `<h2>Step ${i + 1}</h2><p>What this ${language} does.</p><p>${escape(code)}</p>`,
  )
  .join("");

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), min: sorted[0] };
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-writing-"));
const database = await openDatabase({ dataDir });
try {
  await database.migrate(path.join(root, "database/migrations"));
  await setOwnerPassword(database.db, PASSWORD);
  const env = parseEnv({ NODE_ENV: "production", DATA_DIR: dataDir, SITE_URL: "http://localhost" });
  const app = createSiteApp({ env, database, root });
  const signIn = await app.request("http://localhost/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
    body: new URLSearchParams({ password: PASSWORD }).toString(),
  });
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
  if (signIn.status !== 302 || !cookie) throw new Error(`sign-in answered ${signIn.status}`);
  const owner = { cookie, origin: "http://localhost" };

  async function timed(url, init) {
    const start = performance.now();
    const response = await app.request(url, {
      method: "POST",
      ...init,
      headers: { ...owner, ...init.headers },
    });
    const body = await response.text();
    const ms = performance.now() - start;
    if (response.status !== 201) throw new Error(`${url} answered ${response.status}: ${body}`);
    return ms;
  }
  const savePost = (content) =>
    timed("http://localhost/api/posts", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Twenty blocks", description: "", content }),
    });
  const upload = (bytes) => {
    const form = new FormData();
    form.append("image", new Blob([bytes], { type: "image/jpeg" }), "photo.jpg");
    return timed("http://localhost/api/images", { body: form });
  };

  /** Alternating rounds of two cases, after one warm-up request of each. */
  async function compare(a, b, runs) {
    await a();
    await b();
    const times = [[], []];
    for (let i = 0; i < runs; i++) {
      times[0].push(await a());
      times[1].push(await b());
    }
    return times.map(summary);
  }

  const first = await savePost(withCode);
  const [code, plain] = await compare(
    () => savePost(withCode),
    () => savePost(withoutCode),
    RUNS,
  );
  const large = await photo(4000, 3000);
  const small = await photo(1600, 1200);
  const imageRuns = Math.max(3, Math.ceil(RUNS / 3));
  const [big, reference] = await compare(
    () => upload(large),
    () => upload(small),
    imageRuns,
  );

  const fmt = (ms) => ms.toFixed(1);
  console.log(
    `\nSaving a post (${Buffer.byteLength(withCode)} bytes of HTML), ${RUNS} saves per case, ms:\n`,
  );
  console.log("| case | p50 | p95 | min |");
  console.log("|---|---:|---:|---:|");
  console.log(`| first save after start, 20 code blocks (loads Shiki) | ${fmt(first)} | | |`);
  console.log(
    `| 20 code blocks, 5 languages, highlighted | ${fmt(code.p50)} | ${fmt(code.p95)} | ${fmt(code.min)} |`,
  );
  console.log(
    `| same text, no code block (reference) | ${fmt(plain.p50)} | ${fmt(plain.p95)} | ${fmt(plain.min)} |`,
  );
  console.log(`\nUploading an image (POST /api/images), ${imageRuns} uploads per case, ms:\n`);
  console.log("| case | bytes | p50 | p95 | min |");
  console.log("|---|---:|---:|---:|---:|");
  console.log(
    `| 4000×3000 JPEG | ${large.length} | ${fmt(big.p50)} | ${fmt(big.p95)} | ${fmt(big.min)} |`,
  );
  console.log(
    `| 1600×1200 JPEG (reference) | ${small.length} | ${fmt(reference.p50)} | ${fmt(reference.p95)} | ${fmt(reference.min)} |`,
  );
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

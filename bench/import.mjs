// npm run bench:import: a generated WordPress export (WXR) whose posts show images served by a
// peer on loopback (FETCH_ALLOW_PRIVATE=true), imported as the owner does it: uploaded to
// /admin/import of the production server (`npm run serve`'s flags) on a new embedded database in
// a scratch directory, its dry run confirmed, the import job run by the server itself. Meanwhile
// this process asks for /healthz and a cached page (the home page) every PROBE_MS, so the table
// says what readers get while an import runs. A benchmark, not a test: it prints a markdown table
// (import time, /healthz and cached page p50/p99/max during the import, the server's resident
// memory before, at its peak during the import, and its high-water mark) and asserts nothing;
// the exit code is non-zero only when the import failed.
//
//   --posts N    posts in the export (default 2000)
//   --images N   distinct images, each shown by some posts (default 500)
//   --port N     the image peer's port (default 4310); the site listens on the next one
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import sharp from "sharp";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NODE = path.join(root, "node_modules/.bin/node");
const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "2000" },
    images: { type: "string", default: "500" },
    port: { type: "string", default: "4310" },
  },
});
const posts = Number(values.posts);
const imageCount = Number(values.images);
const port = Number(values.port);
const sitePort = port + 1;
const site = `http://127.0.0.1:${sitePort}`;
const PASSWORD = "bench-owner-password";
const PROBE_MS = 50;

const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-import-"));
const images = await Promise.all(
  Array.from({ length: imageCount }, (_, i) =>
    sharp({
      create: { width: 1200, height: 800, channels: 3, background: { r: i % 256, g: 90, b: 40 } },
    })
      .jpeg()
      .toBuffer(),
  ),
);
const peer = http.createServer((request, response) => {
  const match = /^\/uploads\/(\d+)\.jpg$/.exec(request.url ?? "");
  const image = match ? images[Number(match[1])] : undefined;
  if (image) response.writeHead(200, { "content-type": "image/jpeg" }).end(image);
  else response.writeHead(404).end();
});
await new Promise((resolve) => peer.listen(port, "127.0.0.1", resolve));

const item = (i) => `<item>
<title>Post number ${i}</title>
<link>https://old.example/${2020 + (i % 5)}/01/02/post-${i}/</link>
<content:encoded><![CDATA[<!-- wp:paragraph --><p>Paragraph ${i} with <strong>words</strong>.</p><!-- /wp:paragraph -->
[caption]<img src="http://127.0.0.1:${port}/uploads/${i % imageCount}.jpg" alt="Picture ${i}"> A caption[/caption]
[code lang="js"]const n = ${i};[/code]]]></content:encoded>
<wp:post_id>${i}</wp:post_id>
<wp:post_date>2020-01-02 10:00:00</wp:post_date>
<wp:post_date_gmt>2020-01-02 10:00:00</wp:post_date_gmt>
<wp:post_name>post-${i}</wp:post_name>
<wp:status>${i % 10 === 0 ? "draft" : "publish"}</wp:status>
<wp:post_type>post</wp:post_type>
<category domain="post_tag" nicename="tag-${i % 7}"><![CDATA[Tag ${i % 7}]]></category>
</item>`;
const wxr = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Bench</title>
${Array.from({ length: posts }, (_, i) => item(i + 1)).join("\n")}
</channel></rss>`;
const file = path.join(scratch, "export.xml");
writeFileSync(file, wxr);

const server = spawn(
  NODE,
  [
    "--liftoff-only",
    "--max-semi-space-size=4",
    "--optimize-for-size",
    path.join(root, "server.js"),
  ],
  {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: path.join(scratch, "data"),
      PORT: String(sitePort),
      SITE_URL: site,
      OWNER_PASSWORD: PASSWORD,
      FETCH_ALLOW_PRIVATE: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  },
);
let log = "";
server.stdout.on("data", (chunk) => (log += chunk));
server.stderr.on("data", (chunk) => (log += chunk));
const status = (key) =>
  Number(
    new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1],
  );
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function finish(code, message) {
  server.kill("SIGTERM");
  peer.close();
  await new Promise((resolve) => server.on("exit", resolve));
  rmSync(scratch, { recursive: true, force: true });
  if (message) console.error(`${message}\n${log.slice(-2000)}`);
  process.exit(code);
}

for (let i = 0; ; i++) {
  if (i > 600) await finish(1, "the server did not answer /healthz");
  const ok = await fetch(`${site}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  await sleep(200);
}
const signIn = await fetch(`${site}/login`, {
  method: "POST",
  redirect: "manual",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: site },
  body: new URLSearchParams({ password: PASSWORD }).toString(),
});
const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
if (signIn.status !== 302 || !cookie) await finish(1, `sign-in answered ${signIn.status}`);
const owner = { cookie, origin: site };
const form = new FormData();
form.append("intent", "preview");
form.append("file", new Blob([wxr]), "export.xml");
const preview = await fetch(`${site}/admin/import`, { method: "POST", headers: owner, body: form });
const id = /name="id" value="(\d+)"/.exec(await preview.text())?.[1];
if (!id) await finish(1, `the dry run answered ${preview.status} without a plan`);
// The cached page is warmed once, then the server rests a moment before the import starts.
await fetch(`${site}/`).then((r) => r.arrayBuffer());
await sleep(3000);
const rssBefore = status("VmRSS");

const latencies = { healthz: [], cached: [] };
let running = true;
let peakRss = rssBefore;
async function probe(name, url) {
  while (running) {
    const started = performance.now();
    const response = await fetch(url).catch(() => null);
    await response?.arrayBuffer();
    latencies[name].push(performance.now() - started);
    peakRss = Math.max(peakRss, status("VmRSS"));
    await sleep(PROBE_MS);
  }
}
const confirm = new FormData();
confirm.append("intent", "import");
confirm.append("id", id);
const started = Date.now();
await fetch(`${site}/admin/import`, { method: "POST", headers: owner, body: confirm }).then((r) =>
  r.arrayBuffer(),
);
const probes = [probe("healthz", `${site}/healthz`), probe("cached", `${site}/`)];
let done = null;
while (!done) {
  await sleep(1000);
  const page = (
    await fetch(`${site}/admin/import`, { headers: owner }).then((r) => r.text())
  ).replace(/<!-- -->/g, "");
  done = /Done: (\d+) created, (\d+) failed, (\d+) skipped/.exec(page);
  if (/import failed|status.*failed/i.test(page) && !done) await finish(1, "the import failed");
  if (Date.now() - started > 30 * 60_000) await finish(1, "the import took over 30 minutes");
}
const seconds = (Date.now() - started) / 1000;
running = false;
await Promise.all(probes);
const hwm = status("VmHWM");

const quantile = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const ms = (list) =>
  `${quantile(list, 0.5).toFixed(0)} / ${quantile(list, 0.99).toFixed(0)} / ${Math.max(...list).toFixed(0)} ms (${list.length})`;
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `| posts | images | import time | /healthz p50 / p99 / max (n) | cached page p50 / p99 / max (n) | RSS before | RSS peak during | high-water mark |`,
);
console.log(`| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
console.log(
  `| ${posts} | ${imageCount} | ${seconds.toFixed(1)} s | ${ms(latencies.healthz)} | ${ms(latencies.cached)} | ${mb(rssBefore)} | ${mb(peakRss)} | ${mb(hwm)} |`,
);
console.log(`\nCreated ${done[1]}, failed ${done[2]}, skipped ${done[3]}. Load average: ${load}.`);
await finish(0);

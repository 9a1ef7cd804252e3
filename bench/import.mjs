// npm run bench:import: `npm run import` of a generated WordPress export (WXR) whose posts show
// images served by a peer on loopback (FETCH_ALLOW_PRIVATE=true), into a new embedded database in
// a scratch directory. A benchmark, not a test: it prints a markdown table (wall time, peak
// memory of the import's process from /usr/bin/time, posts and images) and asserts nothing; the
// exit code is non-zero only when the import failed.
//
//   --posts N    posts in the export (default 2000)
//   --images N   distinct images, each shown by some posts (default 500)
//   --port N     the image peer's port (default 4310)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

const started = Date.now();
const child = spawn(
  "/usr/bin/time",
  ["-f", "peak-kb %M", NODE, path.join(root, "scripts/import.mjs"), file],
  {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: path.join(scratch, "data"),
      FETCH_ALLOW_PRIVATE: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  },
);
let out = "";
child.stdout.on("data", (chunk) => (out += chunk));
child.stderr.on("data", (chunk) => (out += chunk));
const code = await new Promise((resolve) => child.on("exit", resolve));
const seconds = (Date.now() - started) / 1000;
peer.close();
const peakKb = Number(/peak-kb (\d+)/.exec(out)?.[1] ?? 0);
const summary = out.split("\n").filter((line) => /^(Created|Images:)/.test(line));
console.log(`| posts | images | wall time | peak memory (import process) |`);
console.log(`| ---: | ---: | ---: | ---: |`);
console.log(
  `| ${posts} | ${imageCount} | ${seconds.toFixed(1)} s | ${(peakKb / 1024).toFixed(0)} MB |`,
);
for (const line of summary) console.log(`\n${line}`);
rmSync(scratch, { recursive: true, force: true });
if (code !== 0) {
  console.error(out.slice(-2000));
  process.exit(1);
}

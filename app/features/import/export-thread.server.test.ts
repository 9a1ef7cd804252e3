import { readFileSync } from "node:fs";
import type { Worker } from "node:worker_threads";
import { threadId } from "node:worker_threads";
import { zipSync } from "fflate";
import { afterEach, expect, test } from "vitest";

import { EXPORT_THREAD_LIMITS } from "./export-thread.server";
import { readExport } from "./read-export.server";
import { parseWordPress } from "./wordpress.server";

// A WXR or a zip is read in a worker thread and handed back in parts, so that a large export's
// dry run or import does not hold the event loop (docs/decisions/046). Checked by what the
// process sees, not by timing: a thread is started for the read, and its answer comes in more
// than one message. Were the parse back on this thread, no thread would start.

const F = "tests/fixtures/imports";
const encode = (text: string) => new TextEncoder().encode(text);

const item = (i: number) => `<item><title>Post ${i}</title>
<link>https://old.example/2020/01/02/post-${i}/</link>
<content:encoded><![CDATA[<!-- wp:paragraph --><p>Paragraph ${i}</p><!-- /wp:paragraph -->
[code lang="js"]const n = ${i};[/code]]]></content:encoded>
<wp:post_id>${i}</wp:post_id><wp:post_date_gmt>2020-01-02 10:00:00</wp:post_date_gmt>
<wp:post_name>post-${i}</wp:post_name><wp:status>${i % 10 === 0 ? "draft" : "publish"}</wp:status>
<wp:post_type>${i % 25 === 0 ? "page" : "post"}</wp:post_type>
<category domain="post_tag" nicename="t${i % 7}"><![CDATA[Tag ${i % 7}]]></category></item>`;
const generated = (count: number) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Generated</title>
${Array.from({ length: count }, (_, i) => item(i + 1)).join("\n")}
</channel></rss>`;

/** The threads started meanwhile, with the messages each sent and the thread they came to. */
const threads: { messages: number; receivedOn: Set<number> }[] = [];
const onWorker = (worker: Worker) => {
  const seen = { messages: 0, receivedOn: new Set<number>() };
  threads.push(seen);
  worker.on("message", () => {
    seen.messages++;
    seen.receivedOn.add(threadId);
  });
};
process.on("worker", onWorker);
afterEach(() => {
  threads.length = 0;
});

test("a large WXR is parsed in a worker thread and comes back in parts, as the parser reads it", async () => {
  const count = EXPORT_THREAD_LIMITS.itemsPerMessage * 6 + 7;
  const xml = generated(count);
  const parsed = await readExport({ name: "export.xml", bytes: encode(xml) });
  expect(threads).toHaveLength(1);
  // Seven parts and the end.
  expect(threads[0]!.messages).toBe(8);
  expect(threads[0]!.receivedOn).toEqual(new Set([threadId]));
  expect(parsed).toEqual(parseWordPress(xml));
  expect(parsed.posts.length + parsed.skipped.length).toBe(count);
});

test("WordPress's own exports read off the thread are what the parser reads on it", async () => {
  for (const name of ["theme-unit-test-trimmed.xml", "theme-preview.xml"]) {
    const xml = readFileSync(`${F}/wordpress/${name}`, "utf8");
    expect(await readExport({ name, bytes: encode(xml) })).toEqual(parseWordPress(xml));
  }
  expect(threads).toHaveLength(2);
});

test("a file that is not WXR is refused as before, from its thread", async () => {
  await expect(
    readExport({ name: "page.html", bytes: encode("<html><body></body></html>") }),
  ).rejects.toThrow(/not a WordPress export/);
  expect(threads).toHaveLength(1);
});

test("a zip is unpacked in a worker thread; the caller's bytes stay whole", async () => {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < EXPORT_THREAD_LIMITS.filesPerMessage + 3; i++)
    files[`posts/post-${i}.md`] = encode(`---\ntitle: Post ${i}\n---\n\nText ${i}.\n`);
  const zip = zipSync(files);
  const length = zip.byteLength;
  const parsed = await readExport({ name: "posts.zip", bytes: zip });
  expect(parsed.posts).toHaveLength(EXPORT_THREAD_LIMITS.filesPerMessage + 3);
  expect(threads).toHaveLength(1);
  expect(threads[0]!.messages).toBe(3);
  expect(zip.byteLength).toBe(length);
});

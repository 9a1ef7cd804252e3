import { readFileSync, readdirSync } from "node:fs";
import { zipSync } from "fflate";
import { expect, test } from "vitest";

import { readExport } from "./read-export.server";

const F = "tests/fixtures/imports";
const bytes = (path: string) => new Uint8Array(readFileSync(`${F}/${path}`));

test("an upload's kind comes from its content: WXR, Ghost JSON, one Markdown file", async () => {
  expect(
    (await readExport({ name: "export.xml", bytes: bytes("wordpress/theme-preview.xml") })).source,
  ).toBe("wordpress");
  expect(
    (await readExport({ name: "x.json", bytes: bytes("ghost/v4-export-trimmed.json") })).source,
  ).toBe("ghost");
  expect(
    (await readExport({ name: "rich-content.md", bytes: bytes("markdown/rich-content.md") }))
      .source,
  ).toBe("markdown");
});

test("Medium's export zip: its posts/ folder read, the profile left out", async () => {
  const entries: Record<string, Uint8Array> = { "profile/profile.html": new Uint8Array([60]) };
  for (const name of readdirSync(`${F}/medium/posts`))
    entries[`posts/${name}`] = bytes(`medium/posts/${name}`);
  const parsed = await readExport({ name: "medium-export.zip", bytes: zipSync(entries) });
  expect(parsed.source).toBe("medium");
  expect(parsed.posts).toHaveLength(3);
});

test("a zip of Markdown files in folders", async () => {
  const zip = zipSync({
    "site/content/post/rich-content.md": bytes("markdown/rich-content.md"),
    "site/content/post/math-typesetting.md": bytes("markdown/math-typesetting.md"),
    "__MACOSX/site/content/post/._rich-content.md": new Uint8Array([0]),
  });
  const parsed = await readExport({ name: "posts.zip", bytes: zip });
  expect(parsed.posts.map((p) => p.slug).sort()).toEqual(["math-typesetting", "rich-content"]);
});

test("anything else is refused with a sentence", async () => {
  await expect(
    readExport({ name: "a.txt", bytes: new TextEncoder().encode("hello") }),
  ).rejects.toThrow(/not an export this site reads/);
});

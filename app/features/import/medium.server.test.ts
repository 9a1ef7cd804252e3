import { readFileSync, readdirSync } from "node:fs";
import { expect, test } from "vitest";

import { parseMedium } from "./medium.server";

// Real Medium export posts: the fixtures of Ghost's Medium importer (TryGhost/migrate), named
// as Medium names them in its export zip (tests/fixtures/imports/README.md).
const folder = "tests/fixtures/imports/medium/posts";
const files = readdirSync(folder)
  .sort()
  .map((name) => ({ name: `posts/${name}`, html: readFileSync(`${folder}/${name}`, "utf8") }));
const { posts } = parseMedium(files);
const titled = (title: string) => posts.find((p) => p.title === title)!;

test("a published Medium post: title, subtitle, date, tags, slug and both old URL forms", () => {
  expect(titled("Basic Post Title")).toMatchObject({
    source: "medium",
    sourceId: "abcd1234",
    oldUrl: "https://medium.com/@JoeBloggs/testpost-efefef12121212",
    oldPaths: ["/@JoeBloggs/testpost-efefef12121212", "/p/abcd1234"],
    slug: "testpost",
    description: "This is a subtitle of some sort",
    status: "published",
    tags: ["Things", "Stuff"],
  });
  expect(titled("Basic Post Title").publishedAt?.toISOString()).toBe("2018-08-11T11:23:34.123Z");
  expect(titled("Basic Post Title").body.text).toMatch(/This is a paragraph of text and stuff\./);
  expect(titled("Basic Post Title").body.text).not.toMatch(/section-divider|<footer/);
});

test("a draft (draft_ file, no publication date) stays a draft, its slug from its title", () => {
  expect(titled("Draft Post Title")).toMatchObject({
    status: "draft",
    sourceId: "ababab12121212",
    oldPaths: ["/p/ababab12121212"],
    slug: "draft-post-title",
    publishedAt: null,
  });
});

test("code blocks keep their lines, the markup's indentation gone", () => {
  const body = titled("Blog Post Title").body.text;
  expect(body).toContain(
    "<pre><code>sudo apt-get update\nsudo apt-get install \\\n    apt-transport-https \\\n",
  );
  expect(body).toContain(
    '<pre><code>echo "deb https://sub.example.com/ce/dolor lorem ipsum" |\\ \nsudo tee',
  );
  expect(body).not.toContain("<br>");
});

test("a file with no Medium id is skipped and said so", () => {
  const result = parseMedium([{ name: "posts/x.html", html: '<h1 class="p-name">X</h1>' }]);
  expect(result.posts).toEqual([]);
  expect(result.skipped).toEqual([
    { sourceId: null, title: "X", reason: "posts/x.html names no Medium post id" },
  ]);
});

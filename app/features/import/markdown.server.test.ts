import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

import { parseSimpleToml } from "./front-matter.server";
import { parseMarkdown } from "./markdown.server";

// Real Hugo posts from Hugo's example site, gohugoio/hugoBasicExample: one with TOML front
// matter, one with YAML (tests/fixtures/imports/README.md).
const read = (name: string) => ({
  name: `site/post/${name}`,
  text: readFileSync(`tests/fixtures/imports/markdown/${name}`, "utf8"),
});

test("TOML front matter (Hugo): title, date, description, tags; shortcodes and <!--more--> go", () => {
  const { posts } = parseMarkdown([read("rich-content.md")]);
  expect(posts[0]).toMatchObject({
    source: "markdown",
    sourceId: "site/post/rich-content.md",
    title: "Rich Content",
    slug: "rich-content",
    description: "A brief description of Hugo Shortcodes",
    tags: ["shortcodes", "privacy"],
    status: "published",
    canonicalUrl: null,
  });
  expect(posts[0]!.publishedAt?.toISOString()).toBe("2019-03-10T00:00:00.000Z");
  expect(posts[0]!.body.format).toBe("html");
  expect(posts[0]!.body.text).not.toMatch(/\{\{[<%]|<!--more-->/);
  expect(posts[0]!.body.text).toMatch(
    /^<h2>Hugo ships with several <a href="[^"]+">Built-in Shortcodes<\/a>/,
  );
});

test("YAML front matter: the math post's formulas become the editor's math", () => {
  const { posts } = parseMarkdown([read("math-typesetting.md")]);
  expect(posts[0]).toMatchObject({ title: "Math Typesetting", slug: "math-typesetting", tags: [] });
  expect(posts[0]!.publishedAt?.toISOString()).toBe("2019-03-08T00:00:00.000Z");
  expect(posts[0]!.body.text).toMatch(/<div class="math math-display" data-tex="[^"]+">/);
  expect(posts[0]!.body.text).not.toContain("$$");
});

test("footnotes, math and GitHub's alerts become the editor's markup", () => {
  const text = [
    "---",
    "title: Blocks",
    "---",
    "Said[^1] with $e^{i\\pi}$.",
    "",
    "> [!TIP]",
    "> Try it.",
    "",
    "[^1]: A note.",
  ].join("\n");
  const { posts } = parseMarkdown([{ name: "blocks.md", text }]);
  expect(posts[0]!.body.text).toBe(
    '<p>Said<span class="footnote">A note.</span> with ' +
      '<span class="math math-inline" data-tex="e^{i\\pi}">e^{i\\pi}</span>.</p>\n' +
      '<div class="callout callout-tip" data-callout="tip"><p>Try it.</p>\n</div>',
  );
});

test("Jekyll names, draft, slug, canonical_url and comma tags in front matter", () => {
  const text = [
    "---",
    "title: Moved",
    "draft: true",
    "tags: a, b",
    "canonical_url: https://dev.to/me/moved-1",
    "---",
    "Body ![x](img/x.png)",
  ].join("\n");
  const { posts } = parseMarkdown([{ name: "_posts/2020-02-03-moved-here.md", text }]);
  expect(posts[0]).toMatchObject({
    slug: "moved-here",
    status: "draft",
    tags: ["a", "b"],
    canonicalUrl: "https://dev.to/me/moved-1",
    images: ["img/x.png"],
  });
  expect(posts[0]!.publishedAt?.toISOString()).toBe("2020-02-03T00:00:00.000Z");
});

test("a section's _index.md and a file with no text are skipped and said so", () => {
  const { posts, skipped } = parseMarkdown([
    { name: "site/post/_index.md", text: '+++\ntitle = "Posts"\n+++\n' },
    { name: "site/post/empty.md", text: "---\ntitle: Empty\n---\n" },
  ]);
  expect(posts).toEqual([]);
  expect(skipped.map((s) => s.reason)).toEqual(["a section's list page, not a post", "no text"]);
});

test("parseSimpleToml reads arrays across lines, booleans and dates", () => {
  expect(parseSimpleToml('tags = [\n  "x",\n  "y",\n]\ndraft = true\ndate = 2020-01-02')).toEqual({
    tags: ["x", "y"],
    draft: true,
    date: new Date("2020-01-02"),
  });
});

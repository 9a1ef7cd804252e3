import { readFileSync, readdirSync } from "node:fs";
import { expect, test } from "vitest";

import { parseMedium } from "./medium.server";
import { type ImportContext, planImport } from "./plan";
import { parseWordPress } from "./wordpress.server";

const wxr = parseWordPress(
  readFileSync("tests/fixtures/imports/wordpress/theme-unit-test-trimmed.xml", "utf8"),
);
const empty: ImportContext = {
  takenSlugs: new Set(),
  imported: new Map(),
  existingTags: new Set(),
};

test("the dry run counts posts, drafts, scheduled posts, images and new tags", () => {
  const plan = planImport(wxr, { ...empty, existingTags: new Set(["block"]) });
  expect(plan.counts).toEqual({ posts: 7, published: 5, drafts: 1, scheduled: 1, images: 1 });
  expect(plan.newTags).toEqual([
    "6-1",
    "classic",
    "content",
    "formatting",
    "gallery",
    "image",
    "post-formats",
    "shortcode",
    "unpublished",
  ]);
  expect(plan.skipped).toEqual([]);
  expect(plan.collisions).toEqual([]);
});

test("tags become the site's tags, at most five a post, the rest reported", () => {
  const caption = planImport(wxr, empty).create.find((p) => p.sourceId === "1163")!;
  expect(caption.tags).toEqual(["classic", "image", "post-formats", "shortcode"]);
  expect(caption.droppedTags).toEqual([]);
  const many = {
    ...wxr,
    posts: [{ ...wxr.posts[0]!, tags: ["a", "b", "c", "d", "e", "f", "!!"] }],
  };
  expect(planImport(many, empty).create[0]!.droppedTags).toEqual(["f", "!!"]);
});

test("a slug taken on this site becomes slug-2, and the report says so", () => {
  const plan = planImport(wxr, {
    ...empty,
    takenSlugs: new Set(["blocks-formatting", "draft", "draft-2"]),
  });
  expect(plan.collisions).toEqual([
    {
      title: "Block category: Formatting",
      wanted: "blocks-formatting",
      slug: "blocks-formatting-2",
    },
    { title: "Draft", wanted: "draft", slug: "draft-3" },
  ]);
  expect(plan.create.find((p) => p.sourceId === "1164")).toMatchObject({
    slug: "draft-3",
    collidedWith: "draft",
  });
});

test("posts imported before are skipped, and so is the same Medium post twice in one export", () => {
  const plan = planImport(wxr, { ...empty, imported: new Map([["wordpress:8", 41]]) });
  expect(plan.counts.posts).toBe(6);
  expect(plan.skipped).toEqual([
    { sourceId: "8", title: "WP 6.1 Text category blocks", reason: "imported before" },
  ]);
  const folder = "tests/fixtures/imports/medium/posts";
  const medium = parseMedium(
    readdirSync(folder)
      .sort()
      .map((name) => ({ name, html: readFileSync(`${folder}/${name}`, "utf8") })),
  );
  const twice = planImport(medium, empty);
  expect(twice.counts.posts).toBe(2);
  expect(twice.skipped.map((s) => s.reason)).toEqual(["the same post again in this file"]);
});

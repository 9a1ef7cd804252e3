import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

import { parseGhost } from "./ghost.server";

// A real Ghost 4.1 export (Ghost's own test fixture, trimmed; tests/fixtures/imports/README.md).
const source = readFileSync("tests/fixtures/imports/ghost/v4-export-trimmed.json", "utf8");

test("a Ghost export's post keeps its slug, excerpt, date, images; card comments go", () => {
  const { posts, skipped } = parseGhost(source);
  expect(skipped).toEqual([]);
  expect(posts).toHaveLength(1);
  const post = posts[0]!;
  expect(post).toMatchObject({
    source: "ghost",
    sourceId: "605ac141a2d5a6aa9e101ebd",
    title: "Setting up apps and custom integrations",
    slug: "integrations",
    status: "published",
    oldPaths: ["/integrations/"],
    canonicalUrl: null,
    description:
      "Work with all your favorite apps and tools or create your own custom integrations using the Ghost API.",
  });
  expect(post.publishedAt?.toISOString()).toBe("2021-03-24T04:34:09.000Z");
  expect(post.body.text).not.toContain("kg-card-begin");
  expect(post.body.text).toContain('<h2 id="zapier">Zapier</h2>');
  expect(post.images).toEqual([
    "https://static.ghost.org/v4.0.0/images/app-integrations.png",
    "https://static.ghost.org/v4.0.0/images/integrations-icons.png",
    "https://static.ghost.org/v4.0.0/images/iawriter-integration.png",
  ]);
});

test("pages are skipped, tags come through posts_tags, internal tags stay out", () => {
  const json = JSON.parse(source) as { db: [{ data: Record<string, unknown[]> }] };
  const data = json.db[0].data;
  const post = data["posts"]![0] as Record<string, unknown>;
  data["posts"]!.push({ ...post, id: "page1", type: "page", slug: "about" });
  data["tags"] = [
    { id: "t1", name: "Getting Started", visibility: "public" },
    { id: "t2", name: "#hidden", visibility: "internal" },
  ];
  data["posts_tags"] = [
    { post_id: post["id"], tag_id: "t2", sort_order: 0 },
    { post_id: post["id"], tag_id: "t1", sort_order: 1 },
  ];
  const { posts, skipped } = parseGhost(JSON.stringify(json));
  expect(posts.map((p) => p.tags)).toEqual([["Getting Started"]]);
  expect(skipped).toEqual([
    { sourceId: "page1", title: post["title"], reason: "a page, not a post" },
  ]);
});

test("JSON that is no Ghost export is refused", () => {
  expect(() => parseGhost('{"articles": []}')).toThrow(/not a Ghost export/);
});

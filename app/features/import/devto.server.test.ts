import { readFileSync } from "node:fs";
import { marked } from "marked";
import { zipSync } from "fflate";
import { expect, test } from "vitest";

import { liquidToLinks, parseDevto } from "./devto.server";
import { readExport } from "./read-export.server";

// A real dev.to (Forem) API answer for one article, as Forem's API documentation shows it
// (tests/fixtures/imports/README.md).
const FIXTURE = "tests/fixtures/imports/devto/article-api-v1.json";
const source = readFileSync(FIXTURE, "utf8");
const article = JSON.parse(source) as Record<string, unknown>;

test("a dev.to article: title, dates, tags, slug without dev.to's suffix, old path, body", () => {
  const { posts, skipped } = parseDevto(source);
  expect(skipped).toEqual([]);
  expect(posts).toHaveLength(1);
  const post = posts[0]!;
  expect(post).toMatchObject({
    source: "devto",
    sourceId: "258",
    oldUrl: "http://localhost:3000/username391/pale-kings-and-princes179-381c",
    oldPaths: ["/username391/pale-kings-and-princes179-381c"],
    title: "Pale Kings and Princes179",
    slug: "pale-kings-and-princes179",
    status: "published",
    tags: ["discuss"],
    // dev.to names its own address as canonical when the author gave none.
    canonicalUrl: null,
  });
  expect(post.description).toMatch(/^Etsy you probably haven't heard of them/);
  expect(post.publishedAt?.toISOString()).toBe("2023-04-14T14:45:32.000Z");
  expect(post.body.format).toBe("markdown");
  // The front matter dev.to keeps in body_markdown is not part of the text.
  expect(post.body.text).not.toMatch(/^---|published: true|canonical_url:/m);
  expect(post.body.text).toMatch(/^Etsy you probably/);
  expect(post.body.text).toMatch(/Hashtag godard church-key etsy put a bird on it\.$/);
  // The cover image is the article's first image, as Ghost's feature_image is.
  expect(post.images).toEqual([article["cover_image"]]);
});

test("an article's cover image is listed once, before the body's images; none when it has none", () => {
  const cover = "https://media.dev.to/cover.png";
  const body = `Text\n\n![a chart](https://media.dev.to/chart.png)\n\n![again](${cover})`;
  const both = parseDevto(JSON.stringify({ ...article, cover_image: cover, body_markdown: body }));
  expect(both.posts[0]!.images).toEqual([cover, "https://media.dev.to/chart.png"]);
  const none = parseDevto(JSON.stringify({ ...article, cover_image: null, body_markdown: "Text" }));
  expect(none.posts[0]!.images).toEqual([]);
});

test("the account export's array: drafts, a canonical URL elsewhere, cached tags, no id", () => {
  const draft = {
    ...article,
    id: 9,
    published: false,
    published_at: null,
    published_timestamp: null,
    tag_list: undefined,
    tags: undefined,
    cached_tag_list: "node, webdev",
    slug: "a-draft-temp-slug-123",
    title: "A draft",
    body_markdown: "Draft text",
    canonical_url: "https://me.example/a-draft/",
  };
  const { posts, skipped } = parseDevto(JSON.stringify([article, draft, { title: "No id" }]));
  expect(posts.map((p) => p.status)).toEqual(["published", "draft"]);
  expect(posts[1]).toMatchObject({
    tags: ["node", "webdev"],
    canonicalUrl: "https://me.example/a-draft/",
    slug: "a-draft-temp-slug-123",
  });
  expect(skipped).toEqual([{ sourceId: null, title: "No id", reason: expect.any(String) }]);
});

test("the account export's articles: no id, no url, the cover as main_image", () => {
  // The columns Forem's Exporter::Articles writes, and only those (forem/forem on GitHub,
  // its services/exporter/articles.rb): the account export names an article by its path.
  const exported = {
    body_markdown: article["body_markdown"],
    cached_tag_list: "discuss, node",
    cached_user_name: "Name",
    cached_user_username: "username391",
    canonical_url: null,
    comments_count: 0,
    created_at: "2023-04-14T14:45:32.000Z",
    crossposted_at: null,
    description: article["description"],
    edited_at: "2023-05-02T08:00:00.000Z",
    feed_source_url: null,
    language: "en",
    last_comment_at: "2017-01-01T05:00:00.000Z",
    main_image: "https://media.dev.to/cover.png",
    main_image_background_hex_color: "#dddddd",
    path: "/username391/pale-kings-and-princes179-381c",
    positive_reactions_count: 0,
    processed_html: "<p>Etsy</p>",
    published: true,
    published_at: "2023-04-14T14:45:32.000Z",
    published_from_feed: false,
    reactions_count: 0,
    show_comments: true,
    slug: "pale-kings-and-princes179-381c",
    social_image: null,
    title: article["title"],
    video: null,
    video_closed_caption_track_url: null,
    video_code: null,
    video_source_url: null,
    video_thumbnail_url: null,
  };
  const { posts, skipped } = parseDevto(JSON.stringify([exported]));
  expect(skipped).toEqual([]);
  expect(posts[0]).toMatchObject({
    sourceId: "/username391/pale-kings-and-princes179-381c",
    oldUrl: null,
    oldPaths: ["/username391/pale-kings-and-princes179-381c"],
    slug: "pale-kings-and-princes179",
    status: "published",
    tags: ["discuss", "node"],
    canonicalUrl: null,
    images: ["https://media.dev.to/cover.png"],
  });
  expect(posts[0]!.updatedAt?.toISOString()).toBe("2023-05-02T08:00:00.000Z");
});

test("Liquid tags become plain links to what they showed, and leave nothing else", () => {
  const markdown = [
    "Intro {% link https://dev.to/ben/a-post-1x2y %} inline.",
    "",
    "{% embed https://example.com/thing %}",
    "{% github forem/forem no-readme %}",
    "{% youtube dQw4w9WgXcQ %}",
    "{% link ben/another-post-3z4w %}",
    "{% raw %}kept text{% endraw %}",
    "{% unknownthing %}",
    "",
    "```liquid",
    "{% include footer.html %}",
    "```",
  ].join("\n");
  const out = liquidToLinks(markdown);
  expect(out).toContain("[https://dev.to/ben/a-post-1x2y](https://dev.to/ben/a-post-1x2y)");
  expect(out).toContain("[https://example.com/thing](https://example.com/thing)");
  expect(out).toContain("[https://github.com/forem/forem](https://github.com/forem/forem)");
  expect(out).toContain("(https://www.youtube.com/watch?v=dQw4w9WgXcQ)");
  expect(out).toContain("(https://dev.to/ben/another-post-3z4w)");
  expect(out).toContain("kept text");
  // Only the fenced code keeps a Liquid tag: it is the post's own example.
  expect(out.split("```")[0]).not.toMatch(/\{%|%\}|unknownthing/);
  expect(out).toContain("{% include footer.html %}");

  const html = marked.parse(liquidToLinks("{% github forem/forem %}"), { async: false });
  expect(html).toBe(
    '<p><a href="https://github.com/forem/forem">https://github.com/forem/forem</a></p>\n',
  );
});

test("a parsed post's body keeps no Liquid tag", () => {
  const withTags = { ...article, body_markdown: "Hi\n\n{% youtube abc %}\n\n{% twitter 123 %}" };
  const [post] = parseDevto(JSON.stringify(withTags)).posts;
  expect(post!.body.text).toBe(
    "Hi\n\n[https://www.youtube.com/watch?v=abc](https://www.youtube.com/watch?v=abc)\n\n" +
      "[https://twitter.com/i/status/123](https://twitter.com/i/status/123)",
  );
});

test("an upload is told dev.to by its content: the JSON file, or articles.json in a zip", async () => {
  const bytes = new TextEncoder().encode(source);
  expect((await readExport({ name: "article.json", bytes })).source).toBe("devto");
  const list = new TextEncoder().encode(JSON.stringify([article]));
  expect((await readExport({ name: "articles.json", bytes: list })).source).toBe("devto");
  const zip = zipSync({ "devto-export/articles.json": list, "devto-export/comments.json": list });
  const parsed = await readExport({ name: "devto.zip", bytes: zip });
  expect(parsed.source).toBe("devto");
  expect(parsed.posts).toHaveLength(1);
});

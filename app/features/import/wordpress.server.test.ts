import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

import { parseWordPress } from "./wordpress.server";

// Real WXR files written by WordPress (tests/fixtures/imports/README.md names their origin):
// the Theme Unit Test data (trimmed to seven posts) and the theme preview export.
const trimmed = readFileSync(
  "tests/fixtures/imports/wordpress/theme-unit-test-trimmed.xml",
  "utf8",
);
const preview = readFileSync("tests/fixtures/imports/wordpress/theme-preview.xml", "utf8");

describe("parseWordPress", () => {
  const parsed = parseWordPress(trimmed);
  const byId = (id: string) => parsed.posts.find((p) => p.sourceId === id)!;

  test("reads each post with its id, slug, dates, status and tags", () => {
    expect(parsed.source).toBe("wordpress");
    expect(parsed.posts.map((p) => p.sourceId)).toEqual([
      "8",
      "1732",
      "1736",
      "1163",
      "555",
      "1164",
      "1153",
    ]);
    const formatting = byId("1732");
    expect(formatting).toMatchObject({
      title: "Block category: Formatting",
      slug: "blocks-formatting",
      status: "published",
      tags: ["Block", "formatting", "content περιεχόμενο"],
    });
    expect(formatting.publishedAt?.toISOString()).toBe("2018-11-01T06:03:22.000Z");
    expect(byId("1164").status).toBe("draft");
    expect(byId("1153").status).toBe("scheduled");
  });

  test("a draft without a post name takes its slug from its title", () => {
    expect(byId("1164").slug).toBe("draft");
  });

  test("names the old URL forms: ?p=, the permalink and /YYYY/MM/DD/slug/", () => {
    expect(byId("1732").oldPaths).toEqual([
      "/?p=1732",
      "/2018/11/02/block-category-formatting/",
      "/2018/11/01/blocks-formatting/",
    ]);
    expect(byId("1164").oldPaths).toEqual(["/?p=1164"]);
  });

  test("Gutenberg comments leave no litter, escaped ones in code stay as text", () => {
    for (const post of parsed.posts) expect(post.body.text).not.toMatch(/<!--/);
    const formatting = byId("1732").body.text;
    expect(formatting).toContain("&lt;!-- wp:code -->");
    expect(formatting).toContain('<pre class="wp-block-code"><code>');
  });

  test("shortcodes leave no litter: captions become figures, galleries go", () => {
    const caption = byId("1163");
    expect(caption.body.text).not.toMatch(/\[\/?caption/);
    expect(caption.body.text).toMatch(
      /^<figure><a [^>]+><img [^>]+\/><\/a><figcaption>Bell on wharf in San Francisco<\/figcaption><\/figure>$/,
    );
    expect(caption.images).toEqual([
      "https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg?w=604",
    ]);
    expect(byId("555").body.text).not.toMatch(/\[\/?gallery/);
    expect(byId("1736").body.text).not.toMatch(/\[\/?archives/);
  });

  test("a post's featured image (_thumbnail_id) is its attachment's address, listed first", () => {
    // The trimmed file keeps the post's _thumbnail_id (1628) but not the attachment itself.
    expect(byId("1163").images).toHaveLength(1);
    const attachment = `<item>
	<title>Bell on wharf</title>
	<wp:post_id>1628</wp:post_id>
	<wp:post_type>attachment</wp:post_type>
	<wp:status>inherit</wp:status>
	<wp:attachment_url><![CDATA[https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg]]></wp:attachment_url>
</item>`;
    const withAttachment = parseWordPress(trimmed.replace("</channel>", `${attachment}</channel>`));
    expect(withAttachment.skipped).toEqual(parsed.skipped);
    const post = withAttachment.posts.find((p) => p.sourceId === "1163")!;
    expect(post.images).toEqual([
      "https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg",
      "https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg?w=604",
    ]);
    expect(post.cover).toEqual({
      url: "https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg",
      alt: "",
    });
  });

  test("classic content's blank lines become paragraphs", () => {
    expect(byId("1164").body.text).toBe(
      "<p>This post is drafted and not published yet.</p>\n<p>It should not be displayed by the theme.</p>",
    );
  });

  test("an export without post ids takes them from the guid", () => {
    const posts = parseWordPress(preview).posts;
    expect(posts).toHaveLength(7);
    expect(posts[0]).toMatchObject({
      sourceId: "19",
      slug: "worth-a-thousand-words",
      oldPaths: ["/?p=19"],
    });
    expect(posts[0]!.tags).toEqual(["boat", "lake"]);
    expect(posts[0]!.images).toEqual(["https://wpdotorg.files.wordpress.com/2008/11/boat.jpg"]);
  });

  test("a file that is not WXR is refused", () => {
    expect(() => parseWordPress("<html><body></body></html>")).toThrow(/not a WordPress export/);
  });
});

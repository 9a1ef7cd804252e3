import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

import { planImport } from "./plan";
import { planLines } from "./report";
import { parseWordPress } from "./wordpress.server";

test("the dry run's report names what is created, collisions and what is skipped", () => {
  const parsed = parseWordPress(
    readFileSync("tests/fixtures/imports/wordpress/theme-unit-test-trimmed.xml", "utf8"),
  );
  const plan = planImport(parsed, {
    takenSlugs: new Set(["draft"]),
    imported: new Map([["wordpress:8", 1]]),
    existingTags: new Set(["block", "classic", "content", "formatting", "gallery", "image"]),
  });
  expect(planLines(plan)).toEqual([
    "WordPress export: 6 posts to create (4 published, 1 draft, 1 scheduled), 1 image, 3 new tags (post-formats, shortcode, unpublished).",
    "  + blocks-formatting: Block category: Formatting",
    "  + blocks-widgets: Block category: Widgets",
    "  + post-format-image-caption: Post Format: Image (Caption)",
    "  + post-format-gallery: Post Format: Gallery",
    "  + draft-2 [draft]: Draft",
    "  + scheduled [scheduled]: Scheduled",
    "Slug collisions: 1",
    "  draft is taken: Draft becomes draft-2",
    "Skipped: 1",
    "  - WP 6.1 Text category blocks: imported before",
  ]);
});

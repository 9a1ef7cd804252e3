import { expect, test } from "vitest";

import { updatedOf, withCover } from "./run.server";

const at = (iso: string) => new Date(iso);

test("an export's last change is kept unless it is before the post's publication", () => {
  const published = at("2024-05-01T10:00:00Z");
  const later = at("2024-06-01T10:00:00Z");
  expect(updatedOf({ status: "published", publishedAt: published, updatedAt: later })).toBe(later);
  expect(updatedOf({ status: "published", publishedAt: published, updatedAt: published })).toBe(
    published,
  );
  expect(
    updatedOf({ status: "scheduled", publishedAt: later, updatedAt: published }),
  ).toBeUndefined();
  expect(
    updatedOf({ status: "published", publishedAt: published, updatedAt: null }),
  ).toBeUndefined();
  // A draft has no publication to be before; a published post without a date goes public now.
  expect(updatedOf({ status: "draft", publishedAt: null, updatedAt: later })).toBe(later);
  expect(updatedOf({ status: "published", publishedAt: null, updatedAt: later })).toBeUndefined();
  expect(
    updatedOf({ status: "draft", publishedAt: null, updatedAt: new Date("x") }),
  ).toBeUndefined();
});

test("a cover opens the post, its address and text escaped, unless the body shows it", () => {
  const cover = { url: "https://old.example/cover.jpg?a=1&b=2", alt: 'A "quoted" <field>' };
  expect(withCover("<p>Text.</p>", cover)).toBe(
    '<p><img src="https://old.example/cover.jpg?a=1&amp;b=2" alt="A &quot;quoted&quot; &lt;field&gt;"></p><p>Text.</p>',
  );
  const shown = '<p><img src="https://old.example/cover.jpg?a=1&amp;b=2" alt=""></p>';
  expect(withCover(shown, cover)).toBe(shown);
  expect(withCover("<p>Text.</p>", null)).toBe("<p>Text.</p>");
  expect(withCover("<p>Text.</p>", undefined)).toBe("<p>Text.</p>");
});

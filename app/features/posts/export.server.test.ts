import { expect, test } from "vitest";

import { storableContent } from "./content.server";
import { postMarkdown } from "./export.server";
import { markdownToHtml } from "./markdown-blocks";
import type { Post } from "./post-rows.server";

const post = (content: string) =>
  ({
    title: "Tables",
    slug: "tables",
    status: "draft",
    publishedAt: null,
    updatedAt: new Date("2024-05-01T10:00:00Z"),
    description: "",
    tags: [],
    canonicalUrl: null,
    syndication: [],
    content,
  }) as unknown as Post;

const stored = async (html: string) => {
  const content = await storableContent(html);
  if (!content.ok) throw new Error(content.error);
  return content.html.trim();
};

/** A post's content as the export writes it, and as the Markdown import reads that back. */
async function roundTrip(html: string) {
  const before = await stored(html);
  const { text } = await postMarkdown(post(before));
  const markdown = text.slice(text.indexOf("---\n\n") + 5);
  return { before, markdown, after: await stored(markdownToHtml(markdown)) };
}

const row = (tag: string, ...cells: string[]) =>
  `<tr>${cells.map((cell) => `<${tag}>${cell}</${tag}>`).join("")}</tr>`;

test("a simple table is exported as a GFM table and read back as the same table", async () => {
  const table =
    `<table><colgroup><col /><col /></colgroup><tbody>${row("th", "<p>Name</p>", "<p>Value</p>")}` +
    row("td", "<p>a | b <strong>bold</strong> <code>x|y</code></p>", "<p>one<br />two</p>") +
    row("td", "<p></p>", '<p><a href="https://example.com/">a link</a></p>') +
    `</tbody></table>`;
  const { before, markdown, after } = await roundTrip(table);
  expect(markdown).toBe(
    "| Name | Value |\n| --- | --- |\n" +
      "| a \\| b **bold** `x\\|y` | one<br>two |\n" +
      "|     | [a link](https://example.com/) |\n",
  );
  // The editor's empty column list carries nothing.
  expect(after).toBe(before.replace("<colgroup><col /><col /></colgroup>", ""));
});

test("tables a GFM table cannot hold stay HTML, whole, and come back the same", async () => {
  const tables = [
    // A cell spanning two columns, or two rows.
    `<table><tbody>${row("th", "<p>A</p>", "<p>B</p>")}<tr><td colspan="2"><p>both</p></td></tr></tbody></table>`,
    `<table><tbody>${row("th", "<p>A</p>", "<p>B</p>")}<tr><td rowspan="2"><p>x</p></td><td><p>1</p></td></tr><tr><td><p>2</p></td></tr></tbody></table>`,
    // Blocks in a cell: two paragraphs, a list, code.
    `<table><tbody>${row("th", "<p>A</p>", "<p>B</p>")}${row("td", "<p>one</p><p>two</p>", "<ul><li><p>item</p></li></ul>")}</tbody></table>`,
    `<table><tbody>${row("th", "<p>A</p>", "<p>B</p>")}${row("td", "<pre><code>x = 1</code></pre>", "<p>y</p>")}</tbody></table>`,
    // No heading row, or a heading cell below it.
    `<table><tbody>${row("td", "<p>a</p>", "<p>b</p>")}${row("td", "<p>c</p>", "<p>d</p>")}</tbody></table>`,
    `<table><tbody>${row("th", "<p>A</p>", "<p>B</p>")}${row("th", "<p>c</p>", "<p>d</p>")}</tbody></table>`,
    // One cell.
    `<table><tbody>${row("th", "<p>alone</p>")}</tbody></table>`,
  ];
  for (const table of tables) {
    const { before, markdown, after } = await roundTrip(table);
    // Kept whole (code without the highlighter's tokens, as the export writes any code).
    expect(markdown.trim()).toMatch(
      /^<table><tbody><tr><t[hd]><p>[^<]*<\/p><\/t[hd]>[\s\S]*<\/table>$/,
    );
    expect(after).toBe(before);
  }
});

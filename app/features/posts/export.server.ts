/**
 * Export posts as Markdown: every post but the trashed ones (drafts flagged `draft: true`), one
 * `posts/{slug}/index.md` each with its front matter, and the uploads it shows beside it, linked
 * relatively. One zip, written as it goes (fflate's streaming Zip): a page of posts is read,
 * written and let go before the next. The Markdown importer reads it back.
 */
import { and, asc, gt } from "drizzle-orm";
import type TurndownService from "turndown";

import type { Database } from "../../../database/db.server";
import { blogPosts } from "../../../database/schema";
import { readMedia } from "~/features/media/index.server";
import { fullPost, notTrashed, type Post } from "./post-rows.server";
import { loadWriteSanitizer } from "./sanitize.server";

/** Posts read at once: a 2,000-post blog is never held whole. */
export const EXPORT_PAGE_SIZE = 50;

/** The zip's name, as the download offers it. */
export const exportFileName = (now: Date) => `posts-${now.toISOString().slice(0, 10)}.zip`;

const UPLOAD_SRC = /^\/media\/([0-9a-f]{64})\.(webp|jpg|png|gif)$/;

const BLOCKS = new Set(
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE DETAILS DIV DL FIELDSET FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION TABLE UL".split(
    " ",
  ),
);

const hasBlocks = (node: Element) =>
  Array.from(node.getElementsByTagName("*")).some((child) => BLOCKS.has(child.nodeName));

/** A cell a GFM table holds whole: no spans, and its text inline, in one paragraph at most. */
function simpleCell(cell: Element): boolean {
  for (const span of ["colspan", "rowspan"]) {
    const value = cell.getAttribute(span);
    if (value !== null && value !== "1") return false;
  }
  const [only, ...more] = Array.from(cell.children);
  if (only?.nodeName === "P" && more.length === 0) {
    const text = Array.from(cell.childNodes).filter((node) => node !== only);
    return text.every((node) => !node.textContent?.trim()) && !hasBlocks(only);
  }
  return !hasBlocks(cell);
}

/**
 * A table a GFM table says as it is: a heading row of `<th>` and rows of `<td>` below it, all as
 * wide, no caption, no cell spanning more than one, and no cell holding blocks (lists, code,
 * a second paragraph). What the editor makes of a GFM table (./markdown-blocks.ts) is one.
 */
function simpleTable(table: HTMLTableElement): boolean {
  const rows = Array.from(table.rows);
  const width = rows[0]?.cells.length ?? 0;
  return (
    width > 0 &&
    rows.length * width > 1 &&
    !table.querySelector("caption, table") &&
    rows.every(
      (row, index) =>
        row.cells.length === width &&
        Array.from(row.cells).every(
          (cell) => cell.nodeName === (index === 0 ? "TH" : "TD") && simpleCell(cell),
        ),
    )
  );
}

/**
 * HTML to Markdown: ATX headings, fenced code with its language, `-` lists, simple tables as
 * GFM tables (@joplin/turndown-plugin-gfm's `tables`); any other table stays HTML, whole (the
 * plugin would pad a spanning cell with empty ones, or wrap the table in a div of its own).
 * turndown (like fflate below) loads with the first export, not with the server.
 */
async function markdownWriter(): Promise<TurndownService> {
  const [{ default: Turndown }, { tables }] = await Promise.all([
    import("turndown"),
    import("@joplin/turndown-plugin-gfm"),
  ]);
  const turndown = new Turndown({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
  });
  turndown.use(tables);
  // A line break in a cell is the cell's `<br>` as it is (turndown's would end in two spaces).
  turndown.addRule("tableCellBreak", {
    filter: (node) => node.nodeName === "BR" && Boolean(node.closest("td, th")),
    replacement: () => "<br>",
  });
  // Added last, so it goes first: Markdown readers take a table's HTML as it is.
  turndown.addRule("tableAsHtml", {
    filter: (node) => node.nodeName === "TABLE" && !simpleTable(node as HTMLTableElement),
    replacement: (_content, node) => `\n\n${(node as HTMLElement).outerHTML}\n\n`,
  });
  return turndown;
}

/** A YAML double-quoted scalar (JSON's string syntax is one). */
const yaml = (value: string) => JSON.stringify(value);

/** The front matter the Markdown importer reads (app/features/import/markdown.server.ts). */
export function frontMatterOf(post: Post): string {
  const lines = [
    `title: ${yaml(post.title)}`,
    `slug: ${yaml(post.slug)}`,
    ...(post.publishedAt ? [`date: ${yaml(post.publishedAt.toISOString())}`] : []),
    `updated: ${yaml(post.updatedAt.toISOString())}`,
    `draft: ${post.status === "draft"}`,
    `description: ${yaml(post.description ?? "")}`,
    `tags: [${post.tags.map(yaml).join(", ")}]`,
    ...(post.canonicalUrl ? [`canonical_url: ${yaml(post.canonicalUrl)}`] : []),
    `syndication: [${post.syndication.map(yaml).join(", ")}]`,
  ];
  return `---\n${lines.join("\n")}\n---\n\n`;
}

/**
 * A post's HTML with its uploads pointed at files beside it (`{hash}.{ext}`), and those files'
 * hashes and names. Responsive variants (srcset) are dropped: the file is the image.
 */
export function relativeImages(html: string): { html: string; files: Map<string, string> } {
  const files = new Map<string, string>();
  const rewritten = html.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = /\bsrc="([^"]+)"/i.exec(tag)?.[1] ?? "";
    const upload = UPLOAD_SRC.exec(src);
    if (!upload) return tag;
    const name = `${upload[1]}.${upload[2]}`;
    files.set(upload[1]!, name);
    const alt = /\balt="([^"]*)"/i.exec(tag)?.[1] ?? "";
    return `<img src="${name}" alt="${alt}">`;
  });
  return { html: rewritten, files };
}

/** One post as its Markdown file's text and the uploads to write beside it. */
export async function postMarkdown(post: Post, writer?: TurndownService) {
  const turndown = writer ?? (await markdownWriter());
  // The write sanitizer takes the highlighter's tokens off: code comes back as language and text.
  const clean = (await loadWriteSanitizer())(post.content);
  // The editor's column list holds nothing (no widths), and would hide a table's heading row.
  const { html, files } = relativeImages(
    clean.replace(/<colgroup\b[^>]*>[\s\S]*?<\/colgroup>/gi, ""),
  );
  return { text: `${frontMatterOf(post)}${turndown.turndown(html)}\n`, files };
}

async function* postPages(db: Database): AsyncGenerator<Post[]> {
  let after = 0;
  for (;;) {
    const page = await db
      .select(fullPost)
      .from(blogPosts)
      .where(and(notTrashed, gt(blogPosts.id, after)))
      .orderBy(asc(blogPosts.id))
      .limit(EXPORT_PAGE_SIZE);
    if (page.length === 0) return;
    yield page as Post[];
    after = page.at(-1)!.id;
  }
}

/**
 * Every post as a zip, written to `sink` chunk by chunk (awaited, so a slow reader holds the
 * export back rather than letting it pile up). Answers how many posts and images it wrote.
 */
export async function exportPosts(
  db: Database,
  sink: (chunk: Uint8Array) => void | Promise<void>,
): Promise<{ posts: number; images: number }> {
  const { Zip, ZipDeflate, ZipPassThrough } = await import("fflate");
  const pending: Uint8Array[] = [];
  let failure: Error | null = null;
  let ended = false;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else pending.push(chunk);
    if (final) ended = true;
  });
  const flush = async () => {
    if (failure) throw failure;
    while (pending.length > 0) await sink(pending.shift()!);
  };
  const turndown = await markdownWriter();
  let posts = 0;
  let images = 0;
  for await (const page of postPages(db)) {
    for (const post of page) {
      const { text, files } = await postMarkdown(post, turndown);
      const folder = `posts/${post.slug}`;
      const entry = new ZipDeflate(`${folder}/index.md`, { level: 6 });
      zip.add(entry);
      entry.push(new TextEncoder().encode(text), true);
      for (const [hash, name] of files) {
        const file = await readMedia(db, hash);
        if (!file) continue;
        // Images are compressed already.
        const image = new ZipPassThrough(`${folder}/${name}`);
        zip.add(image);
        image.push(file.bytes, true);
        images++;
      }
      posts++;
      await flush();
    }
  }
  zip.end();
  await flush();
  if (!ended) throw new Error("the zip did not end");
  return { posts, images };
}

/** The export as a web stream, for a download. */
export function exportStream(db: Database): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        void exportPosts(db, async (chunk) => {
          if (cancelled) throw new Error("the download was cancelled");
          controller.enqueue(chunk);
          // Waits while the reader is behind, so the zip is never built whole in memory.
          while (!cancelled && (controller.desiredSize ?? 1) <= 0) {
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        }).then(
          () => controller.close(),
          (error: unknown) => {
            if (!cancelled) controller.error(error);
          },
        );
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 8 },
  );
}

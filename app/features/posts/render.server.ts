/**
 * What a stored post's HTML becomes in the reader, done on the server after the stored
 * sanitizer (app/features/posts/sanitize.server.ts) and before the page is cached, so nothing here depends
 * on the visitor. It only adds this site's own markup around what the sanitizer kept; it never
 * turns text back into markup.
 *
 * - Headings 1-3 get a stable `id` (the slug of their text, numbered when repeated) and a link
 *   to copy their address; `h2`/`h3` make the table of contents, shown from three of them.
 * - Each code block is framed with its language and a `Copy code` button (app/features/site/content-actions.ts
 *   gives it behaviour), and can be scrolled sideways, by keyboard too.
 * - Each table scrolls sideways inside its own frame, so a phone's page never does.
 * - Each image offers its WebP widths with the upload's own format as fallback, keeps its width
 *   and height (no layout shift), and loads lazily unless it is the first thing on screen.
 * - Footnotes are numbered and gathered at the end, callouts labelled (./blocks-render.server.ts);
 *   a post with math says so, for its page to load KaTeX's stylesheet.
 */
import { FOOTNOTES_HEADING_ID, footnoteIds, renderBlocks } from "./blocks-render.server";
import { codeLanguageLabel } from "./code-languages";
import { hasMath } from "./math.server";
import { decodeEntities, READING_WORDS_PER_MINUTE, textOfHtml } from "./rules";
import type { RenderedPost, TocEntry } from "./reader/post-view";
import { slugify } from "./slug";
import { IMAGE_SIZES } from "~/features/media";

export type { RenderedPost, TocEntry };

/** From how many h2/h3 headings a post shows a table of contents. */
export const TOC_MIN_HEADINGS = 3;

/**
 * An image is on the first screen, and so loads at once, when it is the post's first and less
 * than this much text comes before it (about four lines of a phone's column).
 */
const EAGER_TEXT_BEFORE = 240;

/** Ids the page around a post already uses: a heading never takes one of them. */
const RESERVED_IDS = new Set(["main", "preview-heading", "toc-heading"]);

export const ANCHOR_LABEL = (heading: string) => `Copy the link to “${heading}”`;

const HEADING = /<h([1-3])>([\s\S]*?)<\/h\1>/g;
const IMAGE = /<img\b([^>]*?)\s*\/?>/g;
const ATTRIBUTE = /([a-z-]+)="([^"]*)"/g;

const escapeAttribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * Replaces each outermost `tag` element (found by counting its opening and closing tags, so one
 * nested in another is part of it) with what `replace` makes of its attributes and content.
 * Sanitized HTML is balanced, so the count is exact.
 */
function replaceOutermost(
  html: string,
  tag: string,
  replace: (attributes: string, inner: string) => string,
): string {
  const pattern = new RegExp(`<${tag}\\b([^>]*)>|</${tag}>`, "g");
  let result = "";
  let depth = 0;
  let start = 0;
  let attributes = "";
  let innerStart = 0;
  for (const match of html.matchAll(pattern)) {
    if (match[0].startsWith("</")) {
      depth -= 1;
      if (depth === 0) {
        result += replace(attributes, html.slice(innerStart, match.index));
        start = match.index + match[0].length;
      }
      continue;
    }
    if (depth === 0) {
      result += html.slice(start, match.index);
      attributes = match[1] ?? "";
      innerStart = match.index + match[0].length;
    }
    depth += 1;
  }
  return depth === 0 ? result + html.slice(start) : html;
}

function attributesOf(source: string): Record<string, string> {
  return Object.fromEntries(
    [...source.matchAll(ATTRIBUTE)].map(([, name, value]) => [name, value]),
  );
}

/** Words, counted in the post's visible text, code included. */
export function readingMinutes(html: string): number {
  const words = textOfHtml(html.replace(/<[^>]*>/g, " "))
    .split(/\s+/)
    .filter(Boolean).length;
  return Math.max(1, Math.round(words / READING_WORDS_PER_MINUTE));
}

export function renderPostHtml(html: string): RenderedPost {
  const blocks = renderBlocks(html);
  const used = new Set<string>(RESERVED_IDS).add(FOOTNOTES_HEADING_ID);
  const footnotes = blocks.footnotes.match(/<li /g)?.length ?? 0;
  for (let n = 1; n <= footnotes; n++) Object.values(footnoteIds(n)).forEach((id) => used.add(id));
  const headings: TocEntry[] = [];
  let rendered = blocks.html.replace(HEADING, (_match, level: string, inner: string) => {
    const text = decodeEntities(textOfHtml(inner));
    const base = slugify(text) || "section";
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    if (level !== "1") headings.push({ id, text, level: Number(level) as 2 | 3 });
    return (
      `<h${level} id="${id}">${inner}` +
      `<a class="heading-anchor" href="#${id}" data-copy-link aria-label="${escapeAttribute(ANCHOR_LABEL(text))}">#</a>` +
      `</h${level}>`
    );
  });

  rendered = replaceOutermost(rendered, "pre", (attributes, inner) => {
    const language = /class="language-([a-z]+)"/.exec(inner)?.[1] ?? "text";
    const label = codeLanguageLabel(language);
    const focusable = /\btabindex=/.test(attributes) ? attributes : `${attributes} tabindex="0"`;
    return (
      '<div class="code-block">' +
      `<div class="code-head"><span class="code-language">${label}</span>` +
      '<button type="button" class="code-copy" data-copy-code>Copy code</button></div>' +
      `<pre${focusable}>${inner}</pre></div>`
    );
  });

  let tables = 0;
  rendered = replaceOutermost(rendered, "table", (attributes, inner) => {
    tables += 1;
    return (
      `<div class="table-scroll" role="region" aria-label="Table ${tables}" tabindex="0">` +
      `<table${attributes}>${inner}</table></div>`
    );
  });

  let images = 0;
  rendered = rendered.replace(IMAGE, (match, source: string, offset: number) => {
    images += 1;
    const { src, srcset, alt = "", width, height } = attributesOf(source);
    if (!src) return match;
    const eager = images === 1 && textOfHtml(rendered.slice(0, offset)).length < EAGER_TEXT_BEFORE;
    const size = width && height ? ` width="${width}" height="${height}"` : "";
    const img =
      `<img src="${src}" alt="${alt}"${size}` +
      ` loading="${eager ? "eager" : "lazy"}" decoding="async"`;
    if (!srcset) return `${img}>`;
    if (src.endsWith(".webp")) return `${img} srcset="${srcset}" sizes="${IMAGE_SIZES}">`;
    return (
      `<picture><source type="image/webp" srcset="${srcset}" sizes="${IMAGE_SIZES}">` +
      `${img}></picture>`
    );
  });

  return {
    html: rendered + blocks.footnotes,
    toc: headings.length >= TOC_MIN_HEADINGS ? headings : [],
    readingMinutes: readingMinutes(html),
    hasMath: hasMath(html),
  };
}

/**
 * Stored post HTML for a feed: uploads' addresses made absolute (a feed reader has no page to
 * resolve `/media/…` against), nothing else changed.
 */
export function absoluteMediaUrls(html: string, base: string): string {
  return html.replace(/(src(?:set)?="[^"]*")/g, (attribute) =>
    attribute.replace(/(^|[",]\s*|=")\/media\//g, `$1${base}/media/`),
  );
}

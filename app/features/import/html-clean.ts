import { calloutHtml, footnoteHtml, mathHtml } from "~/features/posts";

/**
 * Cleaning of the HTML old blogging systems store, before the posts feature's own sanitizer:
 * what that sanitizer would keep as litter (WordPress shortcodes as bracketed text) or would
 * lose (a code block's language written as a shortcode attribute) is dealt with here.
 */

/** Block-editor delimiters, `<!--more-->`, `<!--nextpage-->` and any other comment. */
const HTML_COMMENT = /<!--[\s\S]*?-->\n?/g;
const GHOST_CARD_COMMENT = /<!--\s*kg-card-(?:begin|end):[^>]*-->/g;
const CODE_SHORTCODE = /\[(code|sourcecode)(\s[^\]]*)?\]([\s\S]*?)\[\/\1\]/g;
const CAPTION_SHORTCODE = /\[(caption|wp_caption)(\s[^\]]*)?\]([\s\S]*?)\[\/\1\]/g;
/** WordPress core's and Jetpack's shortcodes: their tags go, what they enclose stays. */
const KNOWN_SHORTCODES = [
  "audio",
  "embed",
  "gallery",
  "playlist",
  "video",
  "youtube",
  "vimeo",
  "tweet",
  "twitter",
  "googlemaps",
  "contact-form",
  "contact-field",
  "instagram",
  "soundcloud",
  "slideshare",
  "archives",
];
/** Jetpack's LaTeX: `[latex]x^2[/latex]` and `$latex x^2$`. */
const LATEX_SHORTCODE = /\[latex\]([\s\S]*?)\[\/latex\]|\$latex\s+([^$]+?)\$/g;
const OTHER_SHORTCODE = new RegExp(
  `\\[\\/?(?:${KNOWN_SHORTCODES.join("|")})(?:\\s[^\\]]*)?\\]`,
  "g",
);
const BLOCK_START = /^<(?:p|div|h[1-6]|ul|ol|li|pre|blockquote|figure|table|hr|img|section|dl)\b/i;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function attribute(attributes: string | undefined, name: string): string | null {
  const match = new RegExp(`\\b${name}\\s*=\\s*["']?([^"'\\s\\]]+)`).exec(attributes ?? "");
  return match?.[1] ?? null;
}

/** `[code lang="php"]…[/code]` as the code block the editor makes, language kept. */
function codeShortcodes(html: string): string {
  return html.replace(
    CODE_SHORTCODE,
    (_all, _name, attributes: string | undefined, code: string) => {
      const language = attribute(attributes, "language") ?? attribute(attributes, "lang");
      const open = language ? `<code class="language-${language.toLowerCase()}">` : "<code>";
      return `<pre>${open}${escapeHtml(code.replace(/^\n|\n$/g, ""))}</code></pre>`;
    },
  );
}

/** `[caption]<img> Text[/caption]` as a figure with its caption. */
function captionShortcodes(html: string): string {
  return html.replace(CAPTION_SHORTCODE, (_all, _name, _attributes, inner: string) => {
    const image = /^\s*((?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*<\/a>)?)([\s\S]*)$/i.exec(inner);
    if (!image) return inner;
    const caption = image[2]!.trim();
    return `<figure>${image[1]}${caption ? `<figcaption>${caption}</figcaption>` : ""}</figure>`;
  });
}

/**
 * WordPress's wpautop, simply: classic-editor content separates paragraphs with blank lines
 * and breaks lines with single newlines; a chunk that starts with a block element stays as is.
 */
export function autoParagraphs(html: string): string {
  return html
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== "")
    .map((chunk) => (BLOCK_START.test(chunk) ? chunk : `<p>${chunk.replace(/\n/g, "<br>\n")}</p>`))
    .join("\n");
}

/** Text of some HTML, inline tags dropped without a space (`<em>note</em>.` is "note."). */
const decodeText = (html: string) =>
  textOf(html.replace(/<\/?(?:em|strong|b|i|u|s|code|a|span|sup|sub|mark)\b[^>]*>/gi, ""));

/**
 * Footnotes as the editor writes them (`<span class="footnote">note</span>` where referenced):
 * a `<sup>` linking to `#id` whose list item `id` holds the note, as WordPress's footnotes block
 * and Ghost's Markdown cards (markdown-it) write them. The notes' list goes; a reference with no
 * note stays as it was.
 */
export function footnotesAsSpans(html: string): string {
  const notes = new Map<string, string>();
  for (const item of html.matchAll(/<li\b[^>]*\bid=["']([^"']+)["'][^>]*>([\s\S]*?)<\/li>/gi)) {
    // The note's text without its back link (↩).
    const text = decodeText(
      item[2]!.replace(/<a\b[^>]*href=["']#[^"']*["'][^>]*>[\s\S]*?<\/a>/gi, ""),
    );
    notes.set(item[1]!, text.replace(/\s*(?:↩\uFE0E?)+\s*$/u, "").trim());
  }
  if (notes.size === 0) return html;
  let used = false;
  const referenced = html.replace(
    /<sup\b[^>]*>\s*<a\b[^>]*href=["']#([^"']+)["'][^>]*>[\s\S]*?<\/a>\s*<\/sup>/gi,
    (sup, id: string) => {
      const note = notes.get(id);
      if (note === undefined) return sup;
      used = true;
      return footnoteHtml(note);
    },
  );
  if (!used) return html;
  return referenced
    .replace(/<section\b[^>]*class=["'][^"']*footnotes[^"']*["'][^>]*>[\s\S]*?<\/section>/gi, "")
    .replace(
      /<ol\b[^>]*class=["'][^"']*(?:wp-block-footnotes|footnotes-list)[^"']*["'][^>]*>[\s\S]*?<\/ol>/gi,
      "",
    )
    .replace(/<hr\b[^>]*class=["'][^"']*footnotes-sep[^"']*["'][^>]*>/gi, "");
}

/** Ghost's callout card as a note: its emoji goes, its text stays. */
export function ghostCallouts(html: string): string {
  return html.replace(
    /<div\b[^>]*class=["'][^"']*kg-callout-card[^"']*["'][^>]*>\s*(?:<div\b[^>]*kg-callout-emoji[^>]*>[\s\S]*?<\/div>\s*)?<div\b[^>]*kg-callout-text[^>]*>([\s\S]*?)<\/div>\s*<\/div>/gi,
    (_card, text: string) => calloutHtml("note", `<p>${text.trim()}</p>`),
  );
}

/** WordPress post content (classic or block editor) as plain HTML. */
export function cleanWordPressHtml(content: string): string {
  let html = content.replace(HTML_COMMENT, "");
  html = html.replace(LATEX_SHORTCODE, (_all, tag?: string, dollar?: string) =>
    mathHtml(decodeText(tag ?? dollar ?? ""), false),
  );
  html = footnotesAsSpans(html);
  html = codeShortcodes(html);
  html = captionShortcodes(html);
  html = html.replace(OTHER_SHORTCODE, "");
  return /<(?:p|div|h[1-6]|ul|ol|pre|figure)\b/i.test(html) ? html.trim() : autoParagraphs(html);
}

/** Ghost's HTML without its cards' marker comments, its footnotes and callouts as the editor's. */
export function cleanGhostHtml(html: string): string {
  return ghostCallouts(footnotesAsSpans(html.replace(GHOST_CARD_COMMENT, ""))).trim();
}

/** The `src` of every `<img>` of some HTML, in order, once each. */
export function imagesOfHtml(html: string): string[] {
  const found = [...html.matchAll(/<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!);
  return [...new Set(found)];
}

/** The address of every Markdown image `![alt](src "title")` and `<img>` of a Markdown text. */
export function imagesOfMarkdown(markdown: string): string[] {
  const found = [...markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1]!,
  );
  return [...new Set([...found, ...imagesOfHtml(markdown)])];
}

/** Text with its HTML tags and the common entities undone, spaces collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

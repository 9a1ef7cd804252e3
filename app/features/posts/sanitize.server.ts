import type sanitizeHtml from "sanitize-html";

import { CODE_LANGUAGES } from "./code-languages";
import { CODE_THEMES } from "./highlight.server";
import { KATEX_ATTRIBUTES, KATEX_CLASSES, KATEX_STYLES, KATEX_TAGS } from "./katex-allowlist";
import { CALLOUT_TYPES } from "./blocks-markup";
import { isMediaImageSrc, isMediaImageSrcset } from "~/features/media";
import { SANITIZED_HTML_MEMO_CHARS } from "~/lib/limits";
import { remembered } from "~/lib/remembered";

/**
 * The sanitizers for post HTML (docs/product.md#sanitized-html), in two steps of one allowlist:
 *
 * - the **write** sanitizer cleans what the editor (or anyone with the API) sends, down to the
 *   editor's own formats: paragraphs, headings 1-3, bold, italic, strikethrough, lists,
 *   blockquotes, code blocks with a language and inline code, line breaks, horizontal rules,
 *   tables, links to http(s) or mailto, and images uploaded to this site (/media). No element
 *   keeps a style or any class but a code block's language. The server then highlights the code
 *   blocks (app/features/posts/highlight.server.ts) and stores the result.
 * - the **stored** sanitizer runs on every render of a stored post, whatever reached the table
 *   (its recent answers are kept: each version of a post's HTML is cleaned once).
 *   It admits the same, plus exactly what the highlighter emits: a `pre` with Shiki's classes,
 *   background and text colours and `tabindex="0"`, and `span`s with the class `line` or with
 *   colour, font style, weight and decoration properties holding such values, light and dark.
 *
 * Both keep the post's blocks (./markdown-blocks.ts): a footnote `<span class="footnote">`, math
 * `<span class="math math-inline">` / `<div class="math math-display">` with its `data-tex`, and a
 * callout `<div class="callout callout-note|tip|warning" data-callout>`. The stored one keeps
 * KaTeX's rendering inside math too (./math.server.ts): spans with KaTeX's classes and its length,
 * position and colour styles, `aria-hidden`, its MathML elements, and the SVG paths it draws
 * roots and arrows with.
 */
const SAFE_HREF = /^(?:https?:\/\/|mailto:)[^\s\p{Cc}\p{Cf}]*$/iu;

const LANGUAGE_CLASSES = CODE_LANGUAGES.map(({ id }) => `language-${id}`);
const SMALL_NUMBER = /^[1-9][0-9]{0,4}$/;

const COLOUR = [/^#[0-9a-f]{3,8}$/i];
const FONT_STYLE = [/^(?:italic|normal)$/];
const FONT_WEIGHT = [/^(?:bold|normal|[1-9]00)$/];
const TEXT_DECORATION = [/^(?:underline|line-through|none)$/];
/** A token's colours, light (plain properties) and dark (`--shiki-dark-*` ones). */
const TOKEN_STYLES = {
  color: COLOUR,
  "--shiki-dark": COLOUR,
  "font-style": FONT_STYLE,
  "--shiki-dark-font-style": FONT_STYLE,
  "font-weight": FONT_WEIGHT,
  "--shiki-dark-font-weight": FONT_WEIGHT,
  "text-decoration": TEXT_DECORATION,
  "--shiki-dark-text-decoration": TEXT_DECORATION,
};
const BLOCK_STYLES = {
  "background-color": COLOUR,
  "--shiki-dark-bg": COLOUR,
  color: COLOUR,
  "--shiki-dark": COLOUR,
};

const CALLOUT_CLASSES = CALLOUT_TYPES.map((type) => `callout-${type}`);
/** A block element's class list: exactly the math's or a callout's, or nothing. */
const BLOCK_CLASS = new RegExp(`^(?:math math-display|callout (?:${CALLOUT_CLASSES.join("|")}))$`);
const INLINE_CLASS = /^(?:math math-inline|footnote)$/;

const WRITE: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "div",
    "span",
    "h1",
    "h2",
    "h3",
    "strong",
    "b",
    "em",
    "i",
    "s",
    "del",
    "strike",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "code",
    "br",
    "hr",
    "a",
    "img",
    "table",
    "colgroup",
    "col",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  // `rel` is always the transform's below (it overrides any from the input).
  allowedAttributes: {
    a: ["href", "rel"],
    code: ["class"],
    img: ["src", "srcset", "alt", "width", "height"],
    th: ["colspan", "rowspan"],
    td: ["colspan", "rowspan"],
    div: ["class", "data-tex", "data-callout"],
    span: ["class", "data-tex"],
  },
  allowedClasses: {
    code: LANGUAGE_CLASSES,
    div: ["math", "math-display", "callout", ...CALLOUT_CLASSES],
    span: ["math", "math-inline", "footnote"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  // Whatever is dropped goes with its content for these; other unknown tags keep their text.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "template",
    "title",
    "iframe",
    "object",
    "embed",
    "svg",
    "math",
  ],
  transformTags: {
    // Links point away from the site and get no handle on it. Only an absolute http(s) or
    // mailto URL with no whitespace or control character anywhere is kept: sanitize-html's
    // scheme check alone lets "\u2028javascript:..." through.
    a: (_tagName, attribs) => ({
      tagName: "a",
      attribs: {
        ...(attribs.href && SAFE_HREF.test(attribs.href) ? { href: attribs.href } : {}),
        rel: "noopener noreferrer nofollow",
      },
    }),
    // An image is one of this site's uploads or nothing (the filter below drops it): no
    // tracking pixel, no hot-linked picture, no data: URL. Sizes are small whole numbers.
    img: (_tagName, attribs) => ({
      tagName: "img",
      attribs: {
        ...(attribs.src && isMediaImageSrc(attribs.src) ? { src: attribs.src } : {}),
        ...(attribs.srcset && isMediaImageSrcset(attribs.srcset) ? { srcset: attribs.srcset } : {}),
        alt: (attribs.alt ?? "").trim(),
        ...(SMALL_NUMBER.test(attribs.width ?? "") ? { width: attribs.width! } : {}),
        ...(SMALL_NUMBER.test(attribs.height ?? "") ? { height: attribs.height! } : {}),
      },
    }),
    th: cellTransform("th"),
    td: cellTransform("td"),
    div: blockTransform,
    span: inlineTransform,
  },
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

/**
 * A `div` is display math or a callout, or nothing (`unwrapBare` keeps its content): only those two have a
 * place in a post. Math keeps its TeX; a callout its type, written once more from its class.
 */
function blockTransform(_tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const type = (attribs.class ?? "").trim().replace(/\s+/g, " ");
  if (!BLOCK_CLASS.test(type)) return { tagName: "div", attribs: {} };
  if (type.startsWith("math")) {
    return { tagName: "div", attribs: { class: type, "data-tex": attribs["data-tex"] ?? "" } };
  }
  return { tagName: "div", attribs: { class: type, "data-callout": type.slice(16) } };
}

/** A `span` is inline math (with its TeX) or a footnote; any other loses its attributes. */
function inlineTransform(_tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const type = (attribs.class ?? "").trim().replace(/\s+/g, " ");
  if (!INLINE_CLASS.test(type)) return { tagName: "span", attribs: {} };
  return {
    tagName: "span",
    attribs:
      type === "footnote"
        ? { class: type }
        : { class: type, "data-tex": attribs["data-tex"] ?? "" },
  };
}

/** A table cell keeps its spans only when they are small whole numbers. */
function cellTransform(tagName: string): sanitizeHtml.Transformer {
  return (_tagName, attribs) => ({
    tagName,
    attribs: Object.fromEntries(
      Object.entries(attribs).filter(
        ([name, value]) => (name === "colspan" || name === "rowspan") && SMALL_NUMBER.test(value),
      ),
    ),
  });
}

const SHIKI_TOKEN = /(?:^|;)\s*(?:color|--shiki-dark)\s*:\s*#[0-9a-f]{3,8}\s*(?:;|$)/i;

const INLINE_BLOCKS = ["math", "math-inline", "footnote"];
const KATEX_SPAN_CLASSES = new Set([...KATEX_CLASSES, ...INLINE_BLOCKS]);
/** A token's colours in either theme, and KaTeX's lengths and colours. */
const SPAN_STYLES = {
  ...KATEX_STYLES,
  ...TOKEN_STYLES,
};

/** A span with KaTeX's classes only (or a math or footnote span of the write sanitizer's). */
const isKatexSpan = (attribs: sanitizeHtml.Attributes) =>
  (attribs.class ?? "").split(/\s+/).every((name) => name === "" || KATEX_SPAN_CLASSES.has(name)) &&
  (attribs.class !== undefined || attribs.style !== undefined);

const STORED: sanitizeHtml.IOptions = {
  ...WRITE,
  allowedTags: [...(WRITE.allowedTags as string[]), ...KATEX_TAGS],
  allowedAttributes: {
    ...WRITE.allowedAttributes,
    ...KATEX_ATTRIBUTES,
    pre: ["class", "style", "tabindex"],
    span: ["class", "style", "data-tex", "aria-hidden"],
  },
  allowedClasses: {
    ...WRITE.allowedClasses,
    pre: ["shiki", "shiki-themes", CODE_THEMES.light, CODE_THEMES.dark],
    span: ["line", ...KATEX_SPAN_CLASSES],
  },
  allowedStyles: { pre: BLOCK_STYLES, span: SPAN_STYLES, svg: KATEX_STYLES, mpadded: KATEX_STYLES },
  // KaTeX's MathML and SVG stay (the write sanitizer drops them, with their content).
  nonTextTags: (WRITE.nonTextTags as string[]).filter((tag) => tag !== "svg" && tag !== "math"),
  transformTags: {
    ...WRITE.transformTags,
    // A code block is focusable (it scrolls sideways by keyboard) and nothing else.
    pre: (_tagName, { tabindex, ...attribs }) => ({
      tagName: "pre",
      attribs: tabindex === "0" ? { ...attribs, tabindex } : attribs,
    }),
    // Only Shiki's spans and KaTeX's keep anything: a line, a token with a colour, or a part of
    // a formula. Any other span loses its attributes here and its tags in `unwrapBare`, keeping
    // its text.
    span: (_tagName, attribs) => ({
      tagName: "span",
      attribs:
        attribs.class === "line" || SHIKI_TOKEN.test(attribs.style ?? "")
          ? attribs
          : INLINE_CLASS.test(attribs.class ?? "")
            ? inlineTransform("span", attribs).attribs
            : isKatexSpan(attribs)
              ? katexSpan(attribs)
              : {},
    }),
  },
};

/** KaTeX's span attributes: `aria-hidden` only as KaTeX writes it. */
function katexSpan({
  class: name,
  style,
  "aria-hidden": hidden,
}: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  return {
    ...(name ? { class: name } : {}),
    ...(style ? { style } : {}),
    ...(hidden === "true" ? { "aria-hidden": hidden } : {}),
  };
}

/**
 * Sanitized HTML without its attribute-less `<span>` and `<div>` tags (their content stays).
 * sanitize-html's output is balanced, so a stack pairs each closing tag with its opening one.
 * (Renaming such an element to a disallowed tag in a transform instead leaves a stray closing tag
 * behind.)
 */
function unwrapBare(html: string): string {
  if (!html.includes("<span>") && !html.includes("<div>")) return html;
  // Each open element: whether its tags go, and whether it is KaTeX's formula (whose bare spans
  // stay: its stylesheet lays out the children of its lists' spans).
  const open: Record<string, { bare: boolean; katex: boolean }[]> = { span: [], div: [] };
  let inKatex = 0;
  return html.replace(
    /<(span|div)(\s[^>]*)?>|<\/(span|div)>/g,
    (tag, name?: string, attributes?: string, close?: string) => {
      if (close) {
        const element = open[close]!.pop();
        if (element?.katex) inKatex -= 1;
        return element?.bare ? "" : tag;
      }
      const katex = name === "span" && /^ class="katex"$/.test(attributes ?? "");
      if (katex) inKatex += 1;
      const bare = !attributes && !(name === "span" && inKatex > 0);
      open[name!]!.push({ bare, katex });
      return bare ? "" : tag;
    },
  );
}

/**
 * Stored HTML without any `svg` or `math` element (and its content) outside a KaTeX formula's
 * `<span class="katex">`: the stored sanitizer admits them for KaTeX alone.
 */
function keepMathInKatex(html: string): string {
  if (!/<(?:svg|math)\b/.test(html)) return html;
  const spans: boolean[] = [];
  let inKatex = 0;
  let dropping: { tag: string; depth: number } | null = null;
  let result = "";
  let last = 0;
  for (const match of html.matchAll(/<(\/?)(span|svg|math)\b([^>]*)>/g)) {
    const [tag, close, name, attributes] = match;
    if (dropping) {
      if (name === dropping.tag) dropping.depth += close ? -1 : 1;
      if (dropping.depth === 0) {
        last = match.index + tag.length;
        dropping = null;
      }
      continue;
    }
    if (name === "span") {
      if (close) inKatex -= spans.pop() ? 1 : 0;
      else {
        const katex = attributes === ' class="katex"';
        spans.push(katex);
        inKatex += katex ? 1 : 0;
      }
    } else if (!close && inKatex === 0) {
      result += html.slice(last, match.index);
      dropping = { tag: name!, depth: 1 };
    }
  }
  return dropping ? result : result + html.slice(last);
}

/**
 * The History panel's diff (./revisions/render-diff.server.ts) reads each version through
 * `DIFF_INPUT`: the editor's formats, with struck text (`del`, `strike`) written as `s`, so that
 * the only `del` in a diff is the diff's own. The diff it makes is cut by `DIFF_OUTPUT` to the
 * same formats plus its marks: `ins`, `del`, and the visually hidden `span` naming each mark.
 */
const DIFF_INPUT: sanitizeHtml.IOptions = {
  ...WRITE,
  transformTags: { ...WRITE.transformTags, del: "s", strike: "s" },
};
const { span: _writeSpan, ...diffTransforms } = WRITE.transformTags!;
const DIFF_OUTPUT: sanitizeHtml.IOptions = {
  ...WRITE,
  transformTags: diffTransforms,
  allowedTags: [...(WRITE.allowedTags as string[]), "ins", "span"],
  allowedAttributes: { ...WRITE.allowedAttributes, span: ["class"] },
  allowedClasses: { ...WRITE.allowedClasses, span: ["sr-only"] },
};

type Sanitize = (html: string) => string;
type Sanitizers = { write: Sanitize; stored: Sanitize; diffInput: Sanitize; diffOutput: Sanitize };
let sanitizers: Promise<Sanitizers> | undefined;

/**
 * Both sanitizers, loaded on first use: sanitize-html brings postcss with it (about 140 ms of
 * start-up), and the first page most visitors ask for shows no post.
 */
function loadSanitizers() {
  sanitizers ??= import("sanitize-html").then(({ default: sanitizeHtml }) => ({
    write: (html: string) => unwrapBare(sanitizeHtml(html, WRITE)),
    // A function of its input alone, run on every render: each version of a post once.
    stored: remembered(
      (html: string) => keepMathInKatex(unwrapBare(sanitizeHtml(html, STORED))),
      SANITIZED_HTML_MEMO_CHARS,
    ),
    diffInput: (html: string) => sanitizeHtml(html, DIFF_INPUT),
    diffOutput: (html: string) => sanitizeHtml(html, DIFF_OUTPUT),
  }));
  return sanitizers;
}

/** The sanitizer for stored post HTML, run on every render (reader, editor, feeds). */
export const loadPostSanitizer = async (): Promise<Sanitize> => (await loadSanitizers()).stored;

/** The sanitizer for post HTML as sent, before it is highlighted and stored. */
export const loadWriteSanitizer = async (): Promise<Sanitize> => (await loadSanitizers()).write;

/** The sanitizers of the History panel's diff: for each version it reads, and for the diff. */
export const loadDiffSanitizers = async (): Promise<{ input: Sanitize; output: Sanitize }> => {
  const { diffInput, diffOutput } = await loadSanitizers();
  return { input: diffInput, output: diffOutput };
};

import type sanitizeHtml from "sanitize-html";

import { CODE_LANGUAGES } from "./code-languages";
import { CODE_THEMES } from "./highlight.server";
import { isMediaImageSrc, isMediaImageSrcset } from "~/features/media";

/**
 * The sanitizers for post HTML (docs/product.md#sanitized-html), in two steps of one allowlist:
 *
 * - the **write** sanitizer cleans what the editor (or anyone with the API) sends, down to the
 *   editor's own formats: paragraphs, headings 1-3, bold, italic, strikethrough, lists,
 *   blockquotes, code blocks with a language and inline code, line breaks, horizontal rules,
 *   tables, links to http(s) or mailto, and images uploaded to this site (/media). No element
 *   keeps a style or any class but a code block's language. The server then highlights the code
 *   blocks (app/features/posts/highlight.server.ts) and stores the result.
 * - the **stored** sanitizer runs on every render of a stored post, whatever reached the table.
 *   It admits the same, plus exactly what the highlighter emits: a `pre` with Shiki's classes,
 *   background and text colours and `tabindex="0"`, and `span`s with the class `line` or with
 *   colour, font style, weight and decoration properties holding such values, light and dark.
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

const WRITE: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
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
  },
  allowedClasses: { code: LANGUAGE_CLASSES },
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
  },
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

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

const STORED: sanitizeHtml.IOptions = {
  ...WRITE,
  allowedTags: [...(WRITE.allowedTags as string[]), "span"],
  allowedAttributes: {
    ...WRITE.allowedAttributes,
    pre: ["class", "style", "tabindex"],
    span: ["class", "style"],
  },
  allowedClasses: {
    ...WRITE.allowedClasses,
    pre: ["shiki", "shiki-themes", CODE_THEMES.light, CODE_THEMES.dark],
    span: ["line"],
  },
  allowedStyles: { pre: BLOCK_STYLES, span: TOKEN_STYLES },
  transformTags: {
    ...WRITE.transformTags,
    // A code block is focusable (it scrolls sideways by keyboard) and nothing else.
    pre: (_tagName, { tabindex, ...attribs }) => ({
      tagName: "pre",
      attribs: tabindex === "0" ? { ...attribs, tabindex } : attribs,
    }),
    // Only Shiki's spans keep anything: a line, or a token with a colour. Any other span loses
    // its attributes here and its tags in `unwrapBareSpans`, keeping its text.
    span: (_tagName, attribs) => ({
      tagName: "span",
      attribs: attribs.class === "line" || SHIKI_TOKEN.test(attribs.style ?? "") ? attribs : {},
    }),
  },
};

/**
 * Sanitized HTML without its attribute-less `<span>` tags (their text stays). sanitize-html's
 * output is balanced, so a stack pairs each closing tag with its opening one. (Renaming such a
 * span to a disallowed tag in a transform instead leaves a stray closing tag behind.)
 */
function unwrapBareSpans(html: string): string {
  if (!html.includes("<span>")) return html;
  const bare: boolean[] = [];
  return html.replace(/<span(\s[^>]*)?>|<\/span>/g, (tag, attributes?: string) => {
    if (tag === "</span>") return bare.pop() ? "" : tag;
    bare.push(!attributes);
    return attributes ? tag : "";
  });
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
const DIFF_OUTPUT: sanitizeHtml.IOptions = {
  ...WRITE,
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
    write: (html: string) => sanitizeHtml(html, WRITE),
    stored: (html: string) => unwrapBareSpans(sanitizeHtml(html, STORED)),
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

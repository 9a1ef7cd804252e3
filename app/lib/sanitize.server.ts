import type sanitizeHtml from "sanitize-html";

/**
 * The one sanitizer for post HTML (docs/product.md#sanitized-html): the editor's own allowlist and
 * nothing else. Posts are cleaned with it when saved and again when rendered.
 *
 * Allowed: paragraphs, headings 1-3, bold, italic, strikethrough, bullet and numbered lists,
 * blockquotes, code blocks and inline code, line breaks, and links to http(s) or mailto.
 */
const SAFE_HREF = /^(?:https?:\/\/|mailto:)[^\s\p{Cc}\p{Cf}]*$/iu;

const OPTIONS: sanitizeHtml.IOptions = {
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
    "a",
  ],
  // `rel` is always the transform's below (it overrides any from the input).
  allowedAttributes: { a: ["href", "rel"] },
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
  },
};

let sanitizer: Promise<(html: string) => string> | undefined;

/**
 * The sanitizer, loaded on first use: sanitize-html brings postcss with it (about 140 ms of
 * start-up), and the first page most visitors ask for shows no post.
 */
export function loadPostSanitizer(): Promise<(html: string) => string> {
  sanitizer ??= import("sanitize-html").then(
    ({ default: sanitizeHtml }) =>
      (html: string) =>
        sanitizeHtml(html, OPTIONS),
  );
  return sanitizer;
}

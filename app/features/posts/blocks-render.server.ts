/**
 * The reader's markup for a post's footnotes and callouts (./markdown-blocks.ts), added by
 * ./render.server.ts to what the stored sanitizer kept:
 *
 * - each `<span class="footnote">note</span>` becomes a numbered reference (in order of
 *   appearance) linking to its note, and the notes are gathered in a `doc-endnotes` section at
 *   the post's end, each linking back to its reference;
 * - each callout gets `role="note"` and its visible label (Note, Tip, Warning).
 */
import { CALLOUT_LABELS, type CalloutType } from "./blocks-markup";

export const FOOTNOTES_HEADING = "Footnotes";
export const FOOTNOTE_LABEL = (n: number) => `Footnote ${n}`;
export const BACKLINK_LABEL = (n: number) => `Back to reference ${n}`;

/** The ids the footnotes take: a heading never takes one of them. */
export const footnoteIds = (n: number) => ({ note: `fn-${n}`, ref: `fnref-${n}` });
export const FOOTNOTES_HEADING_ID = "footnotes-heading";

const FOOTNOTE_OPEN = '<span class="footnote">';
const SPAN = /<span\b[^>]*>|<\/span>/g;

/**
 * Each outermost `<span class="footnote">` replaced by its reference; returns the notes' HTML in
 * order. Sanitized HTML is balanced, so counting the spans inside one finds its end.
 */
function takeFootnotes(html: string): { html: string; notes: string[] } {
  if (!html.includes(FOOTNOTE_OPEN)) return { html, notes: [] };
  const notes: string[] = [];
  let result = "";
  let last = 0;
  let depth = 0;
  let innerStart = 0;
  for (const match of html.matchAll(SPAN)) {
    const closing = match[0] === "</span>";
    if (depth === 0) {
      if (closing || match[0] !== FOOTNOTE_OPEN) continue;
      result += html.slice(last, match.index);
      innerStart = match.index + match[0].length;
      depth = 1;
      continue;
    }
    depth += closing ? -1 : 1;
    if (depth > 0) continue;
    notes.push(html.slice(innerStart, match.index));
    const n = notes.length;
    const { note, ref } = footnoteIds(n);
    result +=
      `<sup class="footnote-ref"><a href="#${note}" id="${ref}" role="doc-noteref"` +
      ` aria-label="${FOOTNOTE_LABEL(n)}">${n}</a></sup>`;
    last = match.index + match[0].length;
  }
  return { html: result + html.slice(last), notes };
}

function footnotesSection(notes: string[]): string {
  const items = notes.map((text, index) => {
    const n = index + 1;
    const { note, ref } = footnoteIds(n);
    return (
      `<li id="${note}"><p>${text} <a href="#${ref}" class="footnote-back" role="doc-backlink"` +
      ` aria-label="${BACKLINK_LABEL(n)}">↩</a></p></li>`
    );
  });
  return (
    `<section class="footnotes" role="doc-endnotes" aria-labelledby="${FOOTNOTES_HEADING_ID}">` +
    `<h2 id="${FOOTNOTES_HEADING_ID}" class="footnotes-heading">${FOOTNOTES_HEADING}</h2>` +
    `<ol>${items.join("")}</ol></section>`
  );
}

const CALLOUT = /<div class="callout callout-(note|tip|warning)" data-callout="\1">/g;

function labelCallouts(html: string): string {
  return html.replace(
    CALLOUT,
    (_match, type: CalloutType) =>
      `<div class="callout callout-${type}" role="note">` +
      `<p class="callout-label">${CALLOUT_LABELS[type]}</p>`,
  );
}

/** The post's HTML with its callouts labelled and its footnotes numbered (see above). */
export function renderBlocks(html: string): { html: string; footnotes: string } {
  const { html: withRefs, notes } = takeFootnotes(labelCallouts(html));
  return { html: withRefs, footnotes: notes.length > 0 ? footnotesSection(notes) : "" };
}

/**
 * The markup of a post's footnotes, math and callouts (./markdown-blocks.ts describes it), without
 * the Markdown parser: the sanitizer, the reader and the HTML importers need the markup alone,
 * and marked loads only where Markdown is converted (./index.markdown.ts, the editor's paste).
 */
export const CALLOUT_TYPES = ["note", "tip", "warning"] as const;
export type CalloutType = (typeof CALLOUT_TYPES)[number];
export const CALLOUT_LABELS: Record<CalloutType, string> = {
  note: "Note",
  tip: "Tip",
  warning: "Warning",
};
export const ALERT_TYPES: Record<string, CalloutType> = {
  NOTE: "note",
  TIP: "tip",
  IMPORTANT: "note",
  WARNING: "warning",
  CAUTION: "warning",
};

export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const mathHtml = (tex: string, display: boolean) =>
  display
    ? `<div class="math math-display" data-tex="${escapeHtml(tex)}">${escapeHtml(tex)}</div>`
    : `<span class="math math-inline" data-tex="${escapeHtml(tex)}">${escapeHtml(tex)}</span>`;

export const footnoteHtml = (note: string) => `<span class="footnote">${escapeHtml(note)}</span>`;

export const calloutHtml = (type: CalloutType, inner: string) =>
  `<div class="callout callout-${type}" data-callout="${type}">${inner}</div>`;

/** Whether Markdown text holds any of the three (a paste then goes through `markdownToHtml`). */
export function hasMarkdownBlocks(text: string): boolean {
  return (
    /\[\^[^\]\s]+\]/.test(text) ||
    /^\s*\$\$/m.test(text) ||
    /(?:^|[^\\$\w])\$[^\s$](?:[^$\n]*[^\s\\$])?\$(?!\d)/.test(text) ||
    /^>\s*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/im.test(text)
  );
}

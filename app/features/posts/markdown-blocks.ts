/**
 * Markdown as post HTML, with the three blocks a post holds beyond plain Markdown, written the
 * way the editor writes them (./editor/blocks.ts) and the sanitizer keeps them:
 *
 * - a footnote `text[^1]` … `[^1]: note` becomes `<span class="footnote">note</span>` where it is
 *   referenced; the reader numbers them and gathers them at the post's end (./render.server.ts);
 * - math `$x^2$` becomes `<span class="math math-inline" data-tex="x^2">x^2</span>`, `$$…$$` on
 *   lines of their own `<div class="math math-display" data-tex="…">…</div>`; the save renders
 *   them with KaTeX (./math.server.ts);
 * - GitHub's alerts `> [!NOTE]`, `> [!TIP]`, `> [!WARNING]` (and `[!IMPORTANT]` as a note,
 *   `[!CAUTION]` as a warning) become `<div class="callout callout-note" data-callout="note">`.
 *
 * GitHub's tables are written as the editor writes a table too: one body, the heading row's cells
 * `<th>`, each cell's text in a paragraph (the post's export writes such a table back as a GFM
 * table, ./export.server.ts). A column's alignment has no place in a post.
 *
 * Used by the Markdown import and by a Markdown paste in the editor, so both make the same markup.
 */
import { Marked, type TokenizerAndRendererExtension, type Tokens } from "marked";

import {
  ALERT_TYPES,
  calloutHtml,
  type CalloutType,
  footnoteHtml,
  mathHtml,
} from "./blocks-markup";

export { hasMarkdownBlocks } from "./blocks-markup";

const DEFINITION = /^\[\^([^\]\s]+)\]:[ \t]*(.*)$/;
const FENCE = /^\s*(?:```|~~~)/;

/**
 * The footnotes' definitions taken out of the text (outside code fences), each with the lines
 * indented under it. Returns the rest of the text and each label's note.
 */
function takeDefinitions(markdown: string): { text: string; notes: Map<string, string> } {
  const notes = new Map<string, string>();
  const kept: string[] = [];
  let inFence = false;
  let current: string | null = null;
  for (const line of markdown.split("\n")) {
    if (FENCE.test(line)) inFence = !inFence;
    const definition = inFence ? null : DEFINITION.exec(line);
    if (definition) {
      current = definition[1]!;
      notes.set(current, definition[2]!);
      continue;
    }
    if (current !== null && /^(?:\s{2,}|\t)\S/.test(line)) {
      notes.set(current, `${notes.get(current)} ${line.trim()}`);
      continue;
    }
    current = null;
    kept.push(line);
  }
  return { text: kept.join("\n"), notes };
}

const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

type Footnote = Tokens.Generic & { label: string };
type Math = Tokens.Generic & { tex: string };
type Callout = Tokens.Generic & { callout: CalloutType; tokens: Tokens.Generic[] };

function extensions(notes: Map<string, string>, inline: Marked): TokenizerAndRendererExtension[] {
  return [
    {
      name: "footnoteRef",
      level: "inline",
      start: (src) => src.indexOf("[^"),
      tokenizer(src) {
        const match = /^\[\^([^\]\s]+)\]/.exec(src);
        if (!match || !notes.has(match[1]!)) return undefined;
        return { type: "footnoteRef", raw: match[0], label: match[1]! };
      },
      renderer: (token) =>
        footnoteHtml(
          plainText(inline.parseInline(notes.get((token as Footnote).label)!) as string),
        ),
    },
    {
      name: "mathDisplay",
      level: "block",
      start: (src) => src.match(/^ {0,3}\$\$/m)?.index,
      tokenizer(src) {
        const match = /^ {0,3}\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/.exec(src);
        if (!match || match[1]!.trim() === "") return undefined;
        return { type: "mathDisplay", raw: match[0], tex: match[1]!.trim() };
      },
      renderer: (token) => mathHtml((token as Math).tex, true),
    },
    {
      name: "mathInline",
      level: "inline",
      start: (src) => src.indexOf("$"),
      // Pandoc's rule: no space inside either dollar, and no digit right after the closing one,
      // so "$5 and $10" stays text.
      tokenizer(src) {
        const match = /^\$(?!\$)([^\s$](?:[^$\n]*?[^\s\\$])?)\$(?!\d)/.exec(src);
        if (!match) return undefined;
        return { type: "mathInline", raw: match[0], tex: match[1]! };
      },
      renderer: (token) => mathHtml((token as Math).tex, false),
    },
    {
      name: "callout",
      level: "block",
      start: (src) => src.match(/^ {0,3}>\s*\[!/m)?.index,
      tokenizer(src) {
        const match =
          /^ {0,3}>[ \t]*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*\n((?: {0,3}>.*(?:\n|$))*)/i.exec(
            src,
          );
        if (!match) return undefined;
        const body = match[2]!.replace(/^ {0,3}>[ \t]?/gm, "");
        const token: Callout = {
          type: "callout",
          raw: match[0],
          callout: ALERT_TYPES[match[1]!.toUpperCase()]!,
          tokens: [],
        };
        this.lexer.blockTokens(body, token.tokens);
        return token;
      },
      renderer(token) {
        const { callout, tokens } = token as Callout;
        return calloutHtml(callout, this.parser.parse(tokens));
      },
    },
  ];
}

/** A GFM table as the editor writes one. */
function tableHtml(
  this: { parser: { parseInline(tokens: Tokens.Generic[]): string } },
  table: Tokens.Table,
) {
  const row = (cells: Tokens.TableCell[], tag: "th" | "td") =>
    `<tr>${cells.map((cell) => `<${tag}><p>${this.parser.parseInline(cell.tokens)}</p></${tag}>`).join("")}</tr>`;
  return `<table><tbody>${row(table.header, "th")}${table.rows.map((cells) => row(cells, "td")).join("")}</tbody></table>\n`;
}

/** Markdown (GitHub's flavour) as post HTML, footnotes, math and callouts included. */
export function markdownToHtml(markdown: string): string {
  const { text, notes } = takeDefinitions(markdown);
  const inline = new Marked({ gfm: true });
  const marked = new Marked({ gfm: true });
  inline.use({ extensions: extensions(new Map(), inline).filter((e) => e.name === "mathInline") });
  marked.use({ extensions: extensions(notes, inline), renderer: { table: tableHtml } });
  return marked.parse(text, { async: false });
}

/**
 * Math in a post, rendered when the post is saved: each `<span class="math math-inline">` and
 * `<div class="math math-display">` the write sanitizer kept gets KaTeX's HTML and MathML for its
 * `data-tex` (screen readers read the MathML), so a post page needs KaTeX's stylesheet only, no
 * script. TeX that KaTeX cannot read refuses the save, naming the formula and the problem.
 * KaTeX's `trust` stays off: no `\href`, `\url`, `\includegraphics` or `\htmlClass`.
 *
 * KaTeX (2.5 MB of the server's heap once loaded) is imported by the first save that holds
 * math, not when the server starts: V8 sizes its heap from what stays alive, so a module kept
 * loaded costs a few times its size at the server's peak.
 */
import type Katex from "katex";

import { escapeHtml } from "./blocks-markup";
import { decodeEntities } from "./rules";

/** Longest TeX of one formula: more is not a formula a post needs. */
export const MAX_TEX_LENGTH = 4000;

const MATH_ELEMENT = /<(span|div)\b([^>]*)>|<\/(span|div)>/g;
const KIND = /\bclass="[^"]*\bmath-(inline|display)\b[^"]*"/;
const TEX = /\bdata-tex="([^"]*)"/;

export type MathResult = { ok: true; html: string } | { ok: false; error: string };

export const mathErrorText = (tex: string, reason: string) =>
  `The math “${tex.length > 60 ? `${tex.slice(0, 60)}…` : tex}” cannot be shown: ${reason}`;

let katexLoading: Promise<typeof Katex> | undefined;
const loadKatex = () => (katexLoading ??= import("katex").then((module) => module.default));

/** KaTeX's rendering of one formula, or why it has none. */
function renderTex(katex: typeof Katex, tex: string, display: boolean): MathResult {
  if (tex.trim() === "") return { ok: false, error: mathErrorText(tex, "it is empty.") };
  if (tex.length > MAX_TEX_LENGTH) {
    return {
      ok: false,
      error: mathErrorText(tex, `it is longer than ${MAX_TEX_LENGTH} characters.`),
    };
  }
  try {
    const html = katex.renderToString(tex, {
      displayMode: display,
      output: "htmlAndMathml",
      throwOnError: true,
      trust: false,
      strict: false,
      maxSize: 50,
      maxExpand: 500,
    });
    return { ok: true, html };
  } catch (error) {
    const message = (error as Error).message.replace(/^KaTeX parse error:\s*/, "");
    return { ok: false, error: mathErrorText(tex, message) };
  }
}

/**
 * Sanitized post HTML with each math element's content replaced by KaTeX's rendering of its
 * `data-tex` (whatever it held before: the TeX as text, or an earlier rendering).
 */
export async function renderMath(html: string): Promise<MathResult> {
  if (!/\bmath-(?:inline|display)\b/.test(html)) return { ok: true, html };
  const katex = await loadKatex();
  let result = "";
  let last = 0;
  // The open math element: its tag, kind, TeX, and the depth of same-named tags inside it.
  let open: { tag: string; display: boolean; tex: string; depth: number } | null = null;
  for (const match of html.matchAll(MATH_ELEMENT)) {
    const [tag, openTag, attributes = "", closeTag] = match;
    if (open) {
      if (openTag === open.tag) open.depth += 1;
      if (closeTag === open.tag && --open.depth === 0) {
        const rendered = renderTex(katex, open.tex, open.display);
        if (!rendered.ok) return rendered;
        const kind = open.display ? "display" : "inline";
        result +=
          `<${open.tag} class="math math-${kind}" data-tex="${escapeHtml(open.tex)}">` +
          `${rendered.html}</${open.tag}>`;
        last = match.index + tag.length;
        open = null;
      }
      continue;
    }
    const kind = openTag ? KIND.exec(attributes)?.[1] : undefined;
    if (!openTag || !kind) continue;
    result += html.slice(last, match.index);
    const tex = decodeEntities(TEX.exec(attributes)?.[1] ?? "");
    open = { tag: openTag, display: kind === "display", tex, depth: 1 };
  }
  return { ok: true, html: result + html.slice(last) };
}

/** Whether stored post HTML holds rendered math (its page then loads KaTeX's stylesheet). */
export const hasMath = (html: string) => html.includes('class="katex');

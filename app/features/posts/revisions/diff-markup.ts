/**
 * The History panel's diff as markup. Post HTML is cut into tokens (tags, words, spaces, other
 * characters), and a token diff of two versions is written as the newer one's markup: its added
 * words in `<ins>`, the older one's removed words in `<del>`, each mark led by a visually hidden
 * word that names it. Added tags stay (the newer version's structure); removed tags go, unless a
 * removal holds whole elements, which keep their shape (a removed paragraph stays a paragraph).
 * The caller sanitizes what goes in and what comes out (./render-diff.server.ts).
 */
import { DIFF_MARK_TEXT } from "./rules";

/** A tag, an entity, a run of spaces or of letters and digits, or any other single character. */
const TOKEN = /<[^>]*>|\s+|&[#\w]+;|[\p{L}\p{M}\p{N}_]+|[\s\S]/gu;

/** Post HTML as tokens; joined, they are the HTML again. */
export const tokensOf = (html: string): string[] => html.match(TOKEN) ?? [];

const TAG = /^<(\/?)([a-z][a-z0-9]*)/i;
const VOID_TAGS = new Set(["br", "hr", "img", "col", "wbr"]);

type Tag = { name: string; closing: boolean; void: boolean };

function tagOf(token: string): Tag | null {
  const match = TAG.exec(token);
  if (!match) return null;
  const name = match[2]!.toLowerCase();
  return { name, closing: match[1] === "/", void: VOID_TAGS.has(name) };
}

/** Text as HTML: `&`, `<`, `>` and `"` escaped. */
export const escapeText = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Mark = keyof typeof DIFF_MARK_TEXT;
const MARK_TAG = { added: "ins", removed: "del" } as const;

const openMark = (mark: Mark) =>
  `<${MARK_TAG[mark]}><span class="sr-only"> ${escapeText(DIFF_MARK_TEXT[mark])} </span>`;

/**
 * Changed tokens as markup: each run of words (and images, which are read as words) between two
 * tags in one mark; a tag written when `keep` says so. A removed run of spaces alone goes.
 */
function marked(tokens: readonly string[], mark: Mark, keep: (at: number) => boolean): string {
  let out = "";
  let run = "";
  let words = false;
  const flush = () => {
    if (words) out += `${openMark(mark)}${run}</${MARK_TAG[mark]}>`;
    else if (mark === "added") out += run;
    run = "";
    words = false;
  };
  tokens.forEach((token, at) => {
    const tag = tagOf(token);
    if (tag && tag.name !== "img") {
      flush();
      if (keep(at)) out += token;
      return;
    }
    run += token;
    if (!/^\s/.test(token)) words = true;
  });
  flush();
  return out;
}

/** The tags among `tokens` that open and close within them: the elements they hold whole. */
function pairedTags(tokens: readonly string[]): Set<number> {
  const paired = new Set<number>();
  const open: { name: string; at: number }[] = [];
  tokens.forEach((token, at) => {
    const tag = tagOf(token);
    if (!tag || tag.void) return;
    if (!tag.closing) open.push({ name: tag.name, at });
    else if (open.at(-1)?.name === tag.name) paired.add(open.pop()!.at).add(at);
    else open.length = 0;
  });
  return paired;
}

/** Whether every tag among `tokens` but void ones pairs up within them. */
function holdsWholeElements(tokens: readonly string[]): boolean {
  const tags = tokens.filter((token) => {
    const tag = tagOf(token);
    return tag !== null && !tag.void;
  }).length;
  return pairedTags(tokens).size === tags;
}

/** A run of a diff: `same` and `removed` index the older tokens, `added` the newer ones. */
type Part = { kind: "same" | "added" | "removed"; from: number; to: number };

/** The changes of jsdiff's diffArrays as index runs (./render-diff.server.ts). */
export type TokenChange = { added: boolean; removed: boolean; count: number };

function partsOf(changes: readonly TokenChange[]): Part[] {
  let old = 0;
  let now = 0;
  return changes.map(({ added, removed, count }) => {
    const kind = added ? "added" : removed ? "removed" : "same";
    const start = kind === "added" ? now : old;
    if (kind !== "added") old += count;
    if (kind !== "removed") now += count;
    return { kind, from: start, to: start + count };
  });
}

/** How far a removal may move to find whole elements. */
const MAX_SLIDE = 32;

/**
 * Moves a removal between two unchanged runs to where it holds whole elements, when the tokens
 * around it allow: a removed paragraph the diff found as `B</p><p>` becomes `<p>B</p>`. A
 * removal can move one token left when the token before it is the same as its last one (and
 * right likewise), which leaves the older text it was cut from unchanged.
 */
function slideRemoval(old: readonly string[], before: Part, removal: Part, after: Part): void {
  if (holdsWholeElements(old.slice(removal.from, removal.to))) return;
  const length = removal.to - removal.from;
  const candidates: number[] = [];
  for (let s = removal.from, d = 0; d < MAX_SLIDE && s > before.from; s--, d++) {
    if (old[s - 1] !== old[s - 1 + length]) break;
    candidates.push(s - 1);
  }
  for (let s = removal.from, d = 0; d < MAX_SLIDE && s + length < after.to; s++, d++) {
    if (old[s] !== old[s + length]) break;
    candidates.push(s + 1);
  }
  candidates.sort((a, b) => Math.abs(a - removal.from) - Math.abs(b - removal.from));
  const best = candidates.find((s) => holdsWholeElements(old.slice(s, s + length)));
  if (best === undefined) return;
  before.to = best;
  removal.from = best;
  removal.to = best + length;
  after.from = best + length;
}

/** The diff's markup: the newer version with what was added and removed marked. */
export function markChanges(
  old: readonly string[],
  now: readonly string[],
  changes: readonly TokenChange[],
): string {
  const parts = partsOf(changes);
  parts.forEach((part, i) => {
    const before = parts[i - 1];
    const after = parts[i + 1];
    if (part.kind === "removed" && before?.kind === "same" && after?.kind === "same") {
      slideRemoval(old, before, part, after);
    }
  });
  return parts
    .map(({ kind, from, to }) => {
      if (kind === "same") return old.slice(from, to).join("");
      if (kind === "added") return marked(now.slice(from, to), "added", () => true);
      const removed = old.slice(from, to);
      const paired = pairedTags(removed);
      return marked(removed, "removed", (at) => paired.has(at));
    })
    .join("");
}

/**
 * When the versions differ too much to compare word by word: the older one whole, its words
 * marked removed, then the newer one whole, marked added, each keeping its blocks.
 */
export const markWhole = (old: readonly string[], now: readonly string[]) =>
  marked(old, "removed", () => true) + marked(now, "added", () => true);

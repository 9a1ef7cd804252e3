/**
 * A blog search as the reader typed it, split into what full-text search asks of PostgreSQL:
 * `"exact phrases"`, `prefix*` words, and the plain words, all of which must match. The words
 * themselves are folded and split by PostgreSQL's own parser (./search.server.ts), so a query is
 * read exactly as the posts were.
 */
export type SearchQuery = { words: string; phrases: string[]; prefixes: string[] };

export function parseSearch(text: string): SearchQuery {
  const phrases: string[] = [];
  const prefixes: string[] = [];
  const words: string[] = [];
  // A quote left open runs to the end of the text.
  const rest = text.replace(/"([^"]*)(?:"|$)/g, (_, phrase: string) => {
    if (phrase.trim()) phrases.push(phrase.trim());
    return " ";
  });
  for (const token of rest.split(/\s+/)) {
    if (!token) continue;
    const prefix = /^(.*[\p{L}\p{N}])\*+$/u.exec(token);
    if (prefix?.[1]) prefixes.push(prefix[1]);
    else words.push(token);
  }
  return { words: words.join(" "), phrases, prefixes };
}

/** Marks around matched words in snippets: control characters no post text holds. */
export const MARK_START = "\u0001";
export const MARK_END = "\u0002";

/** A snippet split into plain and marked parts, for rendering `<mark>` without raw HTML. */
export function markedParts(snippet: string): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  for (const piece of snippet.split(MARK_START)) {
    const end = piece.indexOf(MARK_END);
    if (end === -1) {
      if (piece) parts.push({ text: piece, marked: false });
      continue;
    }
    if (end > 0) parts.push({ text: piece.slice(0, end), marked: true });
    const after = piece.slice(end + 1).replaceAll(MARK_END, "");
    if (after) parts.push({ text: after, marked: false });
  }
  return parts;
}

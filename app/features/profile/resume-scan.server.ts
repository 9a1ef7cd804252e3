/**
 * A single pass over a JSON text that counts, before anything parses it, what parsing and
 * checking it would cost: the items of each list, the members of each object and how deep they
 * nest (RESUME_IMPORT_LIMITS). It stops at the first count over a limit, so a 1 MB file of
 * 100,000 entries costs the reading of its first 101. Text that is not JSON is left to the parser
 * to refuse: this only needs to be right about JSON.
 */

import { RESUME_IMPORT_LIMITS, RESUME_LIMIT_TEXT } from "./resume-limits";
import { DOCUMENT_PATH } from "./resume.server";

export type ScanLimits = { entries: number; depth: number };
/** `stoppedAt`: the offset in the text where the count went over. */
export type Scan = { ok: true } | { ok: false; message: string; stoppedAt: number };

/** An open list or object: how many items or members so far, and (an object) its last key. */
type Open = { list: boolean; count: number; keyStart: number; keyEnd: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The offset of the quote that closes the string opened at `start` (the text's end if none). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

function keyOf(text: string, open: Open): string {
  const raw = text.slice(open.keyStart, open.keyEnd);
  try {
    return String(JSON.parse(raw));
  } catch {
    return raw;
  }
}

/** Where the innermost open list or object is, as the import names paths ("work[2].highlights"). */
function pathOf(text: string, stack: readonly Open[]): string {
  let path = "";
  for (let i = 0; i < stack.length - 1; i++) {
    const parent = stack[i]!;
    if (parent.list) path += `[${parent.count - 1}]`;
    else path += `${path === "" ? "" : "."}${keyOf(text, parent)}`;
  }
  return path || DOCUMENT_PATH;
}

/** Counts `text`'s lists, objects and nesting against `limits`, stopping at the first excess. */
export function scanJson(text: string, limits: ScanLimits = RESUME_IMPORT_LIMITS): Scan {
  const stack: Open[] = [];
  let top: Open | undefined;
  let justOpened = false;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) continue;
    if (justOpened) {
      justOpened = false;
      if (c !== CLOSE_LIST && c !== CLOSE_OBJECT) top!.count = 1;
    }
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (top !== undefined && !top.list && expectKey) {
        top.keyStart = i;
        top.keyEnd = end + 1;
      }
      i = end;
    } else if (c === OPEN_LIST || c === OPEN_OBJECT) {
      if (stack.length >= limits.depth) {
        return { ok: false, message: RESUME_LIMIT_TEXT.tooDeep, stoppedAt: i };
      }
      top = { list: c === OPEN_LIST, count: 0, keyStart: 0, keyEnd: 0 };
      stack.push(top);
      justOpened = true;
      expectKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_LIST || c === CLOSE_OBJECT) {
      stack.pop();
      top = stack.at(-1);
      expectKey = false;
    } else if (c === COMMA && top !== undefined) {
      top.count++;
      if (top.count > limits.entries) {
        const message = RESUME_LIMIT_TEXT.tooManyEntries(pathOf(text, stack));
        return { ok: false, message, stoppedAt: i };
      }
      expectKey = !top.list;
    } else if (c === COLON) {
      expectKey = false;
    }
  }
  return { ok: true };
}

/** The bytes a request asks for, both ends included. */
export type ByteRange = { start: number; end: number };

const SINGLE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/;

/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110 §14): one range, the file's
 * tail (`bytes=-500`) or from an offset on (`bytes=9500-`); "unsatisfiable" when it starts past
 * the end; null (send the whole file) when there is no header, it is not one byte range (a list
 * of ranges is answered whole), or it is malformed, as the RFC lets a server ignore it.
 */
export function byteRange(
  header: string | undefined,
  size: number,
): ByteRange | "unsatisfiable" | null {
  if (header === undefined) return null;
  const match = SINGLE_RANGE.exec(header);
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const length = Number(last);
    if (length === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return { start, end };
}

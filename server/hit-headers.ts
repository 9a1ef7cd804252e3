// No imports: bench/hit-headers.mjs loads this file with Node's own type stripping.

export type HitHeaders = {
  cookie?: string;
  accept?: string;
  acceptEncoding?: string;
  ifNoneMatch?: string;
};

/**
 * The four request headers a hit reads, in one pass over the raw list: `req.headers` would build
 * an object of every header for each request, and a hit needs only these. Null when one of them
 * comes twice (node:http would join them): the full app reads that request.
 */
export function hitHeaders(raw: string[]): HitHeaders | null {
  const asked: HitHeaders = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    let key: keyof HitHeaders;
    if (name.length === 6) {
      const lower = name.toLowerCase();
      if (lower === "cookie") key = "cookie";
      else if (lower === "accept") key = "accept";
      else continue;
    } else if (name.length === 15 && name.toLowerCase() === "accept-encoding") {
      key = "acceptEncoding";
    } else if (name.length === 13 && name.toLowerCase() === "if-none-match") {
      key = "ifNoneMatch";
    } else continue;
    if (asked[key] !== undefined) return null;
    asked[key] = raw[i + 1]!;
  }
  return asked;
}

import { promisify } from "node:util";
import zlib from "node:zlib";

import type { MiddlewareHandler } from "hono";
import { parseAccept } from "hono/utils/accept";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";

import { wholeBodyOf } from "../app/lib/whole-body";

/** Bodies smaller than this are sent as they are: gzip's framing would eat the gain. */
export const COMPRESS_THRESHOLD = 1024;

const ENCODINGS = ["gzip", "deflate"] as const;
type Encoding = (typeof ENCODINGS)[number];
const COMPRESS_WHOLE: Record<Encoding, (body: Uint8Array) => Promise<Buffer>> = {
  gzip: promisify(zlib.gzip),
  deflate: promisify(zlib.deflate),
};
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/** The encoding the client prefers among ours (gzip on a tie), or null for none. */
export function selectEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const accepts = parseAccept(acceptEncoding);
  const wildcard = accepts.find((a) => a.type === "*")?.q;
  let best: { encoding: Encoding; q: number } | null = null;
  for (const encoding of ENCODINGS) {
    const q = accepts.find((a) => a.type.toLowerCase() === encoding)?.q ?? wildcard ?? 0;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding ?? null;
}

/**
 * Compresses responses, deciding as Hono's `compress` does (type, size, `no-transform`, the
 * client's q-values, `Vary`, a weak ETag), but a body whose length is known, which is every
 * document (app/entry.server.tsx renders it whole) and every file, is compressed in one call on
 * libuv's threads instead of through a web `CompressionStream`. A body of unknown length (a
 * streamed `.data` response) is still compressed as a stream. Why: docs/decisions/023-documents-compressed-whole.md.
 */
export function compress(): MiddlewareHandler {
  return async function compress(c, next) {
    await next();
    const res = c.res;
    const type = res.headers.get("Content-Type");
    const length = res.headers.get("Content-Length");
    if (
      res.status === 206 ||
      c.req.method === "HEAD" ||
      res.headers.has("Content-Encoding") ||
      res.headers.has("Transfer-Encoding") ||
      (length !== null && Number(length) < COMPRESS_THRESHOLD) ||
      !type ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
      NO_TRANSFORM.test(res.headers.get("Cache-Control") ?? "")
    ) {
      return;
    }
    const vary = res.headers.get("Vary");
    if (vary !== "*" && !(vary && VARY_ACCEPT_ENCODING.test(vary))) {
      res.headers.set("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    }
    const encoding = selectEncoding(c.req.header("Accept-Encoding"));
    if (!encoding) return;
    // A document's own bytes, when it carries them: reading res.body would copy them twice, and
    // asking for res.statusText would make the copy too (app/lib/whole-body.ts).
    const whole = length === null ? undefined : wholeBodyOf(res);
    const stream = whole ? null : res.body;
    if (!whole && !stream) return;

    const headers = new Headers(res.headers);
    headers.set("Content-Encoding", encoding);
    const etag = headers.get("ETag");
    if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
    let body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
    if (stream && length === null) {
      body = stream.pipeThrough(new CompressionStream(encoding));
    } else {
      const bytes = whole ?? new Uint8Array(await res.arrayBuffer());
      const packed = await COMPRESS_WHOLE[encoding](bytes);
      headers.set("Content-Length", String(packed.length));
      // Node's Buffers are ArrayBuffer-backed (never shared), which TypeScript cannot know.
      body = packed as Uint8Array<ArrayBuffer>;
    }
    const statusText = whole ? undefined : res.statusText;
    // After next(), Hono merges headers into a response set again unless it is cleared first.
    c.res = undefined;
    c.res = new Response(body, { status: res.status, statusText, headers });
  };
}

import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

import type { CacheTag } from "../../app/lib/cache-tags";

/**
 * How the page cache keeps a body: as rendered, and gzipped once, when it is stored. A cached
 * page holds nothing that differs between responses (a public route renders without a CSP nonce,
 * its scripts allowed by hash: server/security.ts), so a hit sends one stored buffer as it is,
 * with nothing made, copied or compressed per response
 * (docs/decisions/009-cache-hits-at-the-listener.md).
 */

/** What a render hands the cache. */
export type Rendered = {
  status: number;
  headers: [string, string][];
  etag: string;
  tags: readonly CacheTag[];
  body: Buffer;
};

/** A stored page's body, plain and gzip. */
export type StoredBody = { plain: Buffer; gzip: Buffer };

export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

export function storedBody(body: Buffer): StoredBody {
  return { plain: body, gzip: gzipSync(body) };
}

/** One response's body: the stored bytes themselves, shared by every response. */
export function bodyOf(entry: StoredBody, gzip: boolean): Buffer {
  return gzip ? entry.gzip : entry.plain;
}

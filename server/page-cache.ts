import { createHash, randomUUID } from "node:crypto";
import { constants as zlib, crc32, deflateRawSync, gzipSync } from "node:zlib";

import type { MiddlewareHandler } from "hono";

import { notify, type DatabaseHandle } from "../database/db.server";
import { crc32Resplice, crc32Shift } from "./crc32";

/**
 * The page cache: anonymous GETs of public pages are answered from rendered responses kept in
 * memory, so a page is rendered (and the database asked) once per change instead of once per
 * visit. PGlite answers one query at a time, so under load the embedded default depends on it.
 *
 * - Entries are tagged by what they show; a database change (NOTIFY from migration 0004, on
 *   every instance) drops the entries with its tags.
 * - A render that started before a change is not stored (the generation counter moves).
 * - Concurrent misses of one page share one render.
 * - Bodies are kept as templates with a slot wherever the render's nonce was, so every
 *   response still carries a fresh CSP nonce (server/security.ts): plain, and as gzip whose
 *   slots are stored (uncompressed) blocks. A hit copies a template, writes the nonce into its
 *   slots and reckons the gzip CRC-32 from a stored one: no compression, no pass over the page.
 * - Bounded by bytes, least recently used first out.
 */

/** Browsers revalidate every time (ETag → 304); a CDN may keep a page a minute and serve it stale while refetching. */
export const PUBLIC_PAGE_CACHE_CONTROL =
  "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
/** Pages rendered for the signed-in owner, and responses that set cookies. */
export const PRIVATE_NO_STORE = "private, no-store";
/** The channel migration 0004 notifies on. */
export const PAGE_CACHE_CHANNEL = "page_cache";

/** The longest an owner's write waits for its own change notification to come back. */
const BARRIER_TIMEOUT_MS = 1000;
/** Even with no change noticed, an entry is rendered afresh after this long. */
const MAX_AGE_MS = 10 * 60_000;
/** Headers of a rendered response that are kept with it; the rest are per response. */
const KEPT_HEADERS = ["content-type", "content-language", "link", "x-robots-tag"];
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?session=/;

export type Entry = {
  key: string;
  status: number;
  headers: [string, string][];
  /** The body, and the body as gzip, each with a slot wherever the render's nonce was. */
  plain: Template;
  gzip: GzipTemplate;
  etag: string;
  tags: string[];
  bytes: number;
  storedAt: number;
};

/** What a render hands the cache: its body split where its nonce was (not kept: `bytes` counts the templates). */
export type Rendered = Pick<Entry, "status" | "headers" | "etag" | "tags"> & { parts: Buffer[] };

export type CacheStatus = "hit" | "miss" | "bypass";

/** Which cache tags a public page carries, or null when the path is not a cacheable page. */
export function cacheTagsOf(pathname: string): string[] | null {
  let path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  if (path === "/_root") path = "/";
  if (path === "/") return ["profile"];
  if (path === "/blog" || path === "/rss.xml" || path === "/sitemap.xml") return ["posts"];
  if (path === "/robots.txt") return [];
  const post = /^\/blog\/(\d{1,15})$/.exec(path);
  if (post) return [`post:${Number(post[1])}`, "post-pages"];
  return null;
}

/** The query parameters each cached page reads; any other (utm_source, fbclid, …) changes nothing. */
const PAGE_PARAMS: Record<string, readonly string[]> = { "/blog": ["page", "q"] };
/** React Router's own, on the `.data` requests of client-side navigation. */
const DATA_PARAMS = ["_routes"];

/**
 * The cache key of a cacheable URL: its path and the query parameters its page reads, the first
 * value of each (as the loaders read them), in a fixed order. A link shared with tracking
 * parameters then gets the page everyone else gets, instead of a render and a copy of its own.
 */
export function cacheKeyOf(url: URL): string {
  const data = url.pathname.endsWith(".data");
  const page = data ? url.pathname.slice(0, -".data".length) : url.pathname;
  const kept = new URLSearchParams();
  for (const name of [...(PAGE_PARAMS[page] ?? []), ...(data ? DATA_PARAMS : [])]) {
    const value = url.searchParams.get(name);
    if (value !== null) kept.append(name, value);
  }
  const query = kept.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** The tags a NOTIFY payload from migration 0004 drops; "all" when it is not understood. */
export function tagsOfChange(payload: string): string[] | "all" {
  if (payload === "profile") return ["profile"];
  if (payload === "posts") return ["posts", "post-pages"];
  const ids = /^posts:(\d+(?:,\d+)*)$/.exec(payload);
  if (ids?.[1]) return ["posts", ...ids[1].split(",").map((id) => `post:${Number(id)}`)];
  return "all";
}

export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && SESSION_COOKIE.test(cookieHeader);
}

export class PageCache {
  readonly maxBytes: number;
  private entries = new Map<string, Entry>();
  private byTag = new Map<string, Set<string>>();
  private inflight = new Map<string, Promise<Entry | null>>();
  private generation = 0;
  private bytes = 0;

  constructor({ maxBytes }: { maxBytes: number }) {
    this.maxBytes = maxBytes;
  }

  get size() {
    return this.entries.size;
  }

  get totalBytes() {
    return this.bytes;
  }

  get(key: string, now = Date.now()): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt > MAX_AGE_MS) {
      this.remove(key);
      return undefined;
    }
    // Least recently used leaves first: a Map iterates in insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Drops the entries carrying any of `tags`, or everything; renders in flight are not stored. */
  invalidate(tags: string[] | "all") {
    this.generation++;
    if (tags === "all") {
      this.entries.clear();
      this.byTag.clear();
      this.bytes = 0;
      return;
    }
    for (const tag of tags) {
      for (const key of this.byTag.get(tag) ?? []) this.remove(key);
    }
  }

  /** Applies a NOTIFY payload from the database. */
  onChange(payload: string) {
    this.invalidate(tagsOfChange(payload));
  }

  /**
   * The entry for `key`, rendering it with `render` when missing. Concurrent callers share one
   * render; null means the response could not be cached (each caller then renders its own).
   */
  async fill(
    key: string,
    render: () => Promise<Rendered | null>,
  ): Promise<{ entry: Entry | null; rendered: boolean }> {
    const pending = this.inflight.get(key);
    if (pending) return { entry: await pending, rendered: false };
    const generation = this.generation;
    const work = render().then((made) => {
      if (!made) return null;
      const { parts, ...rest } = made;
      const plain = plainTemplate(parts);
      const gzip = gzipTemplate(parts, plain);
      const bytes = plain.bytes.length + gzip.bytes.length + key.length * 2;
      const entry: Entry = { ...rest, plain, gzip, key, bytes, storedAt: Date.now() };
      // A change arrived while rendering: serve this response, but do not keep it.
      if (generation === this.generation) this.store(entry);
      return entry;
    });
    this.inflight.set(key, work);
    try {
      return { entry: await work, rendered: true };
    } finally {
      this.inflight.delete(key);
    }
  }

  private store(entry: Entry) {
    // One page may take at most a quarter of the cache (a sitemap of 100,000 posts would not fit).
    if (entry.bytes > this.maxBytes / 4) return;
    this.remove(entry.key);
    this.entries.set(entry.key, entry);
    this.bytes += entry.bytes;
    for (const tag of entry.tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(entry.key);
    }
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(key);
    }
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}

function etagOf(parts: Buffer[]): string {
  const hash = createHash("sha256");
  for (const [index, part] of parts.entries()) {
    if (index > 0) hash.update("\0nonce\0");
    hash.update(part);
  }
  return `W/"${hash.digest("base64url").slice(0, 27)}"`;
}

function splitBuffer(body: Buffer, separator: string): Buffer[] {
  if (!separator) return [body];
  const marker = Buffer.from(separator);
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, start)) {
    parts.push(body.subarray(start, at));
    start = at + marker.length;
  }
  parts.push(body.subarray(start));
  return parts;
}

/** The random bytes in every nonce a response carries (server/security.ts, server/fast-path.ts). */
export const NONCE_BYTES = 16;
/** Their length in base64: templates keep a slot of this length wherever the render's nonce was. */
const NONCE_LENGTH = 4 * Math.ceil(NONCE_BYTES / 3);

/** A body with slots for the nonce: byte offsets where NONCE_LENGTH bytes of it go. */
type Template = { bytes: Buffer; slots: number[] };
/**
 * A gzip body's template, and what its trailer needs: the CRC-32 of the plain body with zeros in
 * its slots, and the slots' places for crc32Resplice.
 */
type GzipTemplate = Template & { crcWithZeros: number; slotShifts: number };

const EMPTY_SLOT = Buffer.alloc(NONCE_LENGTH);

/** The parts with an empty slot between each two. */
function plainTemplate(parts: Buffer[]): Template {
  const slots: number[] = [];
  const pieces: Buffer[] = [];
  let length = 0;
  for (const [index, part] of parts.entries()) {
    if (index > 0) {
      slots.push(length);
      pieces.push(EMPTY_SLOT);
      length += NONCE_LENGTH;
    }
    pieces.push(part);
    length += part.length;
  }
  return { bytes: Buffer.concat(pieces, length), slots };
}

/** RFC 1952: no name, no time, deflate, Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** RFC 1951 §3.2.4: a non-final stored block's header for NONCE_LENGTH bytes. */
const SLOT_BLOCK_HEADER = Buffer.from([0, NONCE_LENGTH, 0, ~NONCE_LENGTH & 0xff, 0xff]);
/** DEFLATE's window: how far back a match may reach. */
const WINDOW = 32 * 1024;

/**
 * The gzip template: each part as raw DEFLATE (every part but the last ending with a sync flush,
 * byte-aligned and not final), with each slot between them as a stored block, then the trailer
 * (filled per response). Each part is compressed with what precedes it as its dictionary, nonce
 * slots as NUL bytes: the page compresses as well as in one stream, and since page HTML holds no
 * NUL byte, no match can reach into a slot, so a fresh nonce there changes no other byte. A page
 * that does hold a NUL is compressed part by part without a dictionary.
 */
function gzipTemplate(parts: Buffer[], plain: Template): GzipTemplate {
  const primed = !parts.some((part) => part.includes(0));
  const pieces: Buffer[] = [GZIP_HEADER];
  const slots: number[] = [];
  let length = GZIP_HEADER.length;
  let offset = 0; // where this part starts in the plain body
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    const deflated = deflateRawSync(part, {
      finishFlush: last ? zlib.Z_FINISH : zlib.Z_SYNC_FLUSH,
      ...(primed && offset > 0
        ? { dictionary: plain.bytes.subarray(Math.max(0, offset - WINDOW), offset) }
        : {}),
    });
    pieces.push(deflated);
    length += deflated.length;
    offset += part.length;
    if (!last) {
      pieces.push(SLOT_BLOCK_HEADER, EMPTY_SLOT);
      slots.push(length + SLOT_BLOCK_HEADER.length);
      length += SLOT_BLOCK_HEADER.length + NONCE_LENGTH;
      offset += NONCE_LENGTH;
    }
  }
  pieces.push(Buffer.alloc(8)); // CRC-32 and size, per response
  const size = plain.bytes.length;
  return {
    bytes: Buffer.concat(pieces),
    slots,
    crcWithZeros: crc32(plain.bytes),
    slotShifts: plain.slots.reduce((sum, slot) => sum ^ crc32Shift(size - slot - NONCE_LENGTH), 0),
  };
}

/** A copy of the template with `nonce` in every slot. */
function withNonce(template: Template, nonce: string): Buffer {
  const body = Buffer.allocUnsafe(template.bytes.length);
  template.bytes.copy(body);
  for (const slot of template.slots) body.write(nonce, slot, NONCE_LENGTH, "latin1");
  return body;
}

/**
 * One response's body: the page with this response's nonce wherever the render's was, as gzip
 * when `gzip`. Only the nonce is read per response: the gzip trailer's CRC-32 comes from the
 * stored one (server/crc32.ts).
 */
export function bodyOf(entry: Entry, nonce: string, gzip: boolean): Buffer {
  const { bytes, slots } = entry.plain;
  if (slots.length > 0 && Buffer.byteLength(nonce) !== NONCE_LENGTH) {
    // Not a nonce this server makes (tests): the plain body around it, compressed as it is.
    const marker = Buffer.from(nonce);
    const pieces = [bytes.subarray(0, slots[0])];
    for (const [index, slot] of slots.entries()) {
      pieces.push(marker, bytes.subarray(slot + NONCE_LENGTH, slots[index + 1]));
    }
    const plain = Buffer.concat(pieces);
    return gzip ? gzipSync(plain) : plain;
  }
  if (!gzip) return withNonce(entry.plain, nonce);
  const { crcWithZeros, slotShifts } = entry.gzip;
  const body = withNonce(entry.gzip, nonce);
  body.writeUInt32LE(crc32Resplice(crcWithZeros, slotShifts, nonce), body.length - 8);
  body.writeUInt32LE(bytes.length % 2 ** 32, body.length - 4);
  return body;
}

/**
 * Whether to answer gzip: "gzip" (or "*") accepted with a non-zero q. Null when the client
 * would rather have deflate, which only Hono's compress middleware writes.
 */
export function gzipWanted(acceptEncoding: string | undefined): boolean | null {
  if (!acceptEncoding) return false;
  let gzip = false;
  let other = false;
  for (const item of acceptEncoding.split(",")) {
    const [name = "", ...params] = item.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find((v) => v !== undefined);
    if (q !== undefined && Number(q) === 0) continue;
    if (name === "gzip" || name === "x-gzip" || name === "*") gzip = true;
    else if (name === "deflate") other = true;
  }
  return gzip ? true : other ? null : false;
}

/** The headers a cached response carries besides the site-wide ones (server/security.ts). */
export function entryHeaders(entry: Entry, status: CacheStatus, gzip: boolean): [string, string][] {
  const headers: [string, string][] = [
    ...entry.headers,
    ["ETag", entry.etag],
    ["Cache-Control", PUBLIC_PAGE_CACHE_CONTROL],
    ["Vary", "Cookie, Accept-Encoding"],
    ["X-Page-Cache", status],
  ];
  if (gzip) headers.push(["Content-Encoding", "gzip"]);
  return headers;
}

export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === bare);
}

/** Per request: set when a part of the page could not be read (app/lib/safe.ts). */
export type RenderState = { degraded: boolean };
type Variables = { secureHeadersNonce?: string; renderState?: RenderState };

/**
 * Hono middleware in front of React Router. Public pages get CDN-friendly `Cache-Control`
 * whether or not the in-process cache is on (`cache` null: PAGE_CACHE=false); the owner's
 * requests (a session cookie) bypass it and are marked `no-store`.
 */
export function pageCacheMiddleware(
  cache: PageCache | null,
  {
    isOwner = async () => true,
    afterOwnerWrite,
  }: {
    /** Whether a request's cookies hold a live owner session (a made-up cookie does not bypass). */
    isOwner?: (cookieHeader: string) => Promise<boolean>;
    afterOwnerWrite?: () => Promise<void>;
  } = {},
): MiddlewareHandler<{ Variables: Variables }> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== "GET" && method !== "HEAD") {
      await next();
      // The owner's next anonymous look at the site must not find the page as it was.
      if (afterOwnerWrite && hasSessionCookie(c.req.header("cookie"))) await afterOwnerWrite();
      return;
    }
    const url = new URL(c.req.url);
    const tags = cacheTagsOf(url.pathname);
    if (tags === null) return next();
    const state: RenderState = { degraded: false };
    c.set("renderState", state);

    const cookie = c.req.header("cookie");
    if (cookie !== undefined && hasSessionCookie(cookie) && (await isOwner(cookie))) {
      await next();
      c.res.headers.set("Cache-Control", PRIVATE_NO_STORE);
      c.res.headers.set("X-Page-Cache", "bypass");
      return;
    }

    if (!cache || method === "HEAD") {
      const entry = cache?.get(cacheKeyOf(url));
      if (entry) return respond(c, entry, "hit");
      await next();
      const shareable = !/no-store|private/.test(c.res.headers.get("cache-control") ?? "");
      if (state.degraded) c.res.headers.set("Cache-Control", PRIVATE_NO_STORE);
      else if (c.res.status === 200 && shareable && !c.res.headers.has("set-cookie")) {
        c.res.headers.set("Cache-Control", PUBLIC_PAGE_CACHE_CONTROL);
        c.res.headers.append("Vary", "Cookie");
      }
      return;
    }

    const key = cacheKeyOf(url);
    const cached = cache.get(key);
    if (cached) return respond(c, cached, "hit");

    const nonce = c.get("secureHeadersNonce") ?? "";
    const { entry, rendered } = await cache.fill(key, async () => {
      await next();
      const res = c.res;
      if (res.status !== 200 || res.headers.has("set-cookie") || !res.body) return null;
      // React Router marks what must not be shared (e.g. an error rendered mid-stream).
      if (/no-store|private/.test(res.headers.get("cache-control") ?? "")) return null;
      const body = Buffer.from(await res.arrayBuffer());
      // The body was read: hand the leader's own response back intact if it is not kept.
      c.res = new Response(body, res);
      // An incomplete page (a read failed and shows empty) is served once, never kept.
      if (state.degraded) {
        c.res.headers.set("Cache-Control", PRIVATE_NO_STORE);
        return null;
      }
      const parts = splitBuffer(body, nonce);
      return {
        status: res.status,
        headers: KEPT_HEADERS.flatMap((name) => {
          const value = res.headers.get(name);
          return value === null ? [] : [[name, value] as [string, string]];
        }),
        parts,
        etag: etagOf(parts),
        tags,
      };
    });
    if (entry) {
      // After next(), Hono ignores a returned response and merges headers into a set one.
      c.res = undefined;
      c.res = respond(c, entry, rendered ? "miss" : "hit");
      return;
    }
    // Not cacheable: the leader's response is in c.res; a follower renders its own.
    if (!rendered) await next();
  };
}

function respond(
  c: Parameters<MiddlewareHandler<{ Variables: Variables }>>[0],
  entry: Entry,
  status: CacheStatus,
) {
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch && etagMatches(ifNoneMatch, entry.etag)) {
    const headers = new Headers(entryHeaders(entry, status, false));
    headers.delete("content-type");
    return new Response(null, { status: 304, headers });
  }
  const gzip = gzipWanted(c.req.header("accept-encoding")) === true;
  const headers = new Headers(entryHeaders(entry, status, gzip));
  if (c.req.method === "HEAD") return new Response(null, { status: entry.status, headers });
  const body = bodyOf(entry, c.get("secureHeadersNonce") ?? "", gzip);
  headers.set("Content-Length", String(body.length));
  // Node's Buffers are ArrayBuffer-backed (never shared), which TypeScript cannot know.
  return new Response(body as Uint8Array<ArrayBuffer>, { status: entry.status, headers });
}

/**
 * Connects the cache to the database's change notifications (migration 0004). `barrier`
 * resolves once every change committed before it was called has reached this cache.
 */
export async function linkPageCache(cache: PageCache, database: DatabaseHandle) {
  const waiting = new Map<string, () => void>();
  const subscription = await database.listen(
    PAGE_CACHE_CHANNEL,
    (payload) => {
      if (payload.startsWith("barrier:")) {
        waiting.get(payload)?.();
        return;
      }
      cache.onChange(payload);
    },
    () => cache.invalidate("all"),
  );
  return {
    barrier: async () => {
      const token = `barrier:${randomUUID()}`;
      let timer: NodeJS.Timeout | undefined;
      const seen = new Promise<void>((resolve) => {
        waiting.set(token, resolve);
        timer = setTimeout(resolve, BARRIER_TIMEOUT_MS);
      });
      try {
        await notify(database.db, PAGE_CACHE_CHANNEL, token);
        await seen;
      } catch {
        // The database is unreachable: nothing was written either.
      } finally {
        clearTimeout(timer);
        waiting.delete(token);
      }
    },
    close: () => subscription.close(),
  };
}

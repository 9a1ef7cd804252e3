import { randomFillSync, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

import { getRequestListener } from "@hono/node-server";

import { wantsActivityPub } from "../app/features/social";
import { entryHeaders, etagMatches, gzipWanted, hasSessionCookie } from "./page-cache/middleware";
import type { Entry, PageCache } from "./page-cache/store";
import { HSTS } from "./security";
import { bodyPieces, NONCE_BYTES } from "./page-cache/template";

/**
 * Cache hits without the framework: a GET for a page the cache holds is answered at the
 * node:http listener, skipping Hono's middleware and the Web Response conversion, which cost
 * more than the page itself. Everything else, and anything in doubt, goes to the full app.
 *
 * The site-wide headers (security, server/security.ts) are not written twice: they are taken
 * from the first cached page the full app answered, with the CSP nonce as a slot, so both
 * paths send the same headers by construction (tests/built/fast-path.test.ts).
 */

/** Headers that belong to one response or one page, not to the site. */
const PER_RESPONSE = new Set([
  "cache-control",
  "connection",
  "content-encoding",
  "content-language",
  "content-length",
  "content-type",
  "date",
  "etag",
  "keep-alive",
  "link",
  "retry-after",
  "set-cookie",
  "strict-transport-security",
  "transfer-encoding",
  "vary",
  "x-page-cache",
  "x-request-id",
  "x-robots-tag",
]);
const NONCE_IN_POLICY = /'nonce-([^']+)'/;

export class SiteHeaders {
  private headers: [string, string][] | null = null;
  /** The CSP around its nonce, or null when the site sends no CSP (development). */
  private policy: [string, string] | null = null;

  get learned() {
    return this.headers !== null;
  }

  /** Takes the site-wide headers from a page the full app answered from the cache. */
  learn(response: Response) {
    if (this.headers || response.status !== 200) return;
    const state = response.headers.get("x-page-cache");
    if (state !== "hit" && state !== "miss") return;
    this.take(response);
  }

  /** Takes the site-wide headers from any response that carries them all (server/security.ts). */
  take(response: Response) {
    const headers: [string, string][] = [];
    let policy: [string, string] | null = null;
    for (const [name, value] of response.headers) {
      if (PER_RESPONSE.has(name)) continue;
      if (name === "content-security-policy") {
        const nonce = NONCE_IN_POLICY.exec(value);
        if (!nonce?.[1]) return;
        const at = nonce.index + "'nonce-".length;
        policy = [value.slice(0, at), value.slice(at + nonce[1].length)];
        continue;
      }
      headers.push([name, value]);
    }
    this.policy = policy;
    this.headers = headers;
  }

  /** The site-wide headers for one response; the CSP is left off a 304 (server/security.ts). */
  for(nonce: string, status: number): [string, string][] {
    const policy = this.policyWith(nonce, status);
    return [
      ...(this.headers ?? []),
      ...(policy ? [["Content-Security-Policy", policy] as [string, string]] : []),
    ];
  }

  /**
   * The headers every hit on `entry` sends alike, flat as writeHead takes them: the site-wide
   * ones but the CSP, then the entry's. Made once per entry and kind of answer (status, gzip,
   * whether the cache status is said, https), not per request.
   */
  fixedFor(entry: Entry, variant: Variant): string[] {
    let variants = this.fixed.get(entry);
    if (!variants) this.fixed.set(entry, (variants = []));
    // Each of the four choices a bit: a number indexes the entry's variants without building a
    // key per request.
    const index =
      (variant.status === 304 ? 8 : 0) |
      (variant.gzip ? 4 : 0) |
      (variant.showCacheStatus ? 2 : 0) |
      (variant.secure ? 1 : 0);
    let headers = variants[index];
    if (!headers) {
      headers = [
        ...(this.headers ?? []),
        ...entryHeaders(entry, "hit", variant.gzip).filter(
          ([name]) => variant.showCacheStatus || name !== "X-Page-Cache",
        ),
        // As the full app does (server/security.ts): HSTS on https requests only.
        ...(variant.secure ? [["Strict-Transport-Security", HSTS] as [string, string]] : []),
      ]
        .filter(([name]) => variant.status !== 304 || name.toLowerCase() !== "content-type")
        .flat();
      variants[index] = headers;
    }
    return headers;
  }

  /** The CSP with `nonce`, or null when the site sends none; never on a 304. */
  policyWith(nonce: string, status: number): string | null {
    return this.policy && status !== 304 ? this.policy[0] + nonce + this.policy[1] : null;
  }

  private fixed = new WeakMap<Entry, (string[] | undefined)[]>();
}

type Variant = { status: number; gzip: boolean; showCacheStatus: boolean; secure: boolean };

/**
 * A function of one header's value, remembered for the values seen last: a hit reads the same
 * few Accept and Accept-Encoding values over and over.
 */
function remembered<T>(read: (value: string | undefined) => T, size = 64) {
  const seen = new Map<string | undefined, T>();
  return (value: string | undefined): T => {
    let answer = seen.get(value);
    if (answer === undefined && !seen.has(value)) {
      if (seen.size >= size) seen.clear();
      answer = read(value);
      seen.set(value, answer);
    }
    return answer as T;
  };
}
const gzipOf = remembered(gzipWanted);
const activityPubWanted = remembered(wantsActivityPub);

/**
 * Answers the request from the cache when it can; false sends it on to the full app. Only
 * anonymous GETs whose raw path is a key of the cache (keys are normalised URLs, so an equal
 * raw path is the same page; other spellings, such as a link with tracking parameters, find it
 * through the full app) and that take gzip or no encoding at all.
 */
export function serveCachedPage(
  cache: PageCache,
  site: SiteHeaders,
  req: IncomingMessage,
  res: ServerResponse,
  showCacheStatus = true,
  isSecure: (req: IncomingMessage) => boolean = () => false,
): boolean {
  if (req.method !== "GET" || !site.learned || !req.url?.startsWith("/")) return false;
  if (hasSessionCookie(req.headers.cookie)) return false;
  // The home page and posts answer ActivityPub too (server/middleware/federation.ts).
  if (activityPubWanted(req.headers.accept)) return false;
  const gzip = gzipOf(req.headers["accept-encoding"]);
  if (gzip === null) return false;
  const entry = cache.get(req.url);
  if (!entry) return false;

  const ifNoneMatch = req.headers["if-none-match"];
  const notModified = ifNoneMatch !== undefined && etagMatches(ifNoneMatch, entry.etag);
  const status = notModified ? 304 : entry.status;
  const variant = { status, gzip: gzip && !notModified, showCacheStatus, secure: isSecure(req) };
  const headers = site.fixedFor(entry, variant).slice();
  const nonce = freshNonce();
  const policy = site.policyWith(nonce, status);
  if (policy) headers.push("Content-Security-Policy", policy);
  headers.push("X-Request-Id", randomUUID());
  if (notModified) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  const pieces = bodyPieces(entry, nonce, gzip);
  let length = 0;
  for (const piece of pieces) length += piece.length;
  headers.push("Content-Length", String(length));
  res.writeHead(status, headers);
  // Corked, the head and every piece leave in one writev; end() uncorks.
  res.cork();
  const last = pieces.length - 1;
  for (let index = 0; index < last; index++) {
    if (pieces[index]!.length > 0) res.write(pieces[index]);
  }
  res.end(pieces[last]);
  return true;
}

const noncePool = Buffer.alloc(NONCE_BYTES * 1024);
let nonceOffset = noncePool.length;

/**
 * A fresh CSP nonce: the same 16 random bytes in base64 as Hono's secureHeaders makes for the
 * full app, drawn from the system's CSPRNG 16 KB at a time (one call a page cost 7% of a hit).
 * Each slice is used once.
 */
export function freshNonce(): string {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

type FetchCallback = Parameters<typeof getRequestListener>[0];

/**
 * The node:http listener for the site: uploads and cache hits here, the rest through `fetch`
 * (Hono).
 * `X-Page-Cache` is said only when `showCacheStatus` (PAGE_CACHE_HEADER): the app always sets
 * it, for this listener to learn from, and it is taken off here otherwise.
 */
export function siteListener(
  fetch: FetchCallback,
  cache: PageCache | null,
  {
    showCacheStatus = true,
    isSecure,
    media,
  }: {
    showCacheStatus?: boolean;
    /** Whether a request is https (server/middleware/sender.ts decides the same for the full app). */
    isSecure?: (req: IncomingMessage) => boolean;
    /** Answers /media/ requests (server/media/); false for any other path. */
    media?: (req: IncomingMessage, res: ServerResponse) => boolean;
  } = {},
) {
  const site = new SiteHeaders();
  const full = getRequestListener(async (request, env) => {
    const response = (await fetch(request, env)) as Response;
    if (!site.learned) site.learn(response);
    if (!showCacheStatus && response.headers.has("x-page-cache")) {
      response.headers.delete("x-page-cache");
    }
    return response;
  });
  if (!cache && !media) return full;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (media?.(req, res)) return;
    if (cache && serveCachedPage(cache, site, req, res, showCacheStatus, isSecure)) return;
    return full(req, res);
  };
}

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

import { getRequestListener } from "@hono/node-server";

import { wantsActivityPub } from "../app/features/social";
import { entryHeaders, etagMatches, gzipWanted, hasSessionCookie } from "./page-cache/middleware";
import type { Entry, PageCache } from "./page-cache/store";
import { HSTS } from "./security";
import { bodyOf } from "./page-cache/body";
import { hitHeaders } from "./hit-headers";

/**
 * Cache hits without the framework: a GET for a page the cache holds is answered at the
 * node:http listener, skipping Hono's middleware and the Web Response conversion, which cost
 * more than the page itself. Everything else, and anything in doubt, goes to the full app.
 *
 * The site-wide headers (security, server/security.ts) are not written twice: they are taken
 * from the first cached page the full app answered, so both paths send the same headers by
 * construction (tests/built/fast-path.test.ts). A cached page carries no nonce, so nothing but
 * the request id differs from one hit to the next.
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

export class SiteHeaders {
  private headers: [string, string][] | null = null;

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

  /**
   * Takes the site-wide headers from any response that carries them all (server/security.ts),
   * its CSP the one every response without a nonce carries: the page cache holds no page with a
   * nonce.
   */
  take(response: Response) {
    this.headers = [...response.headers].filter(([name]) => !PER_RESPONSE.has(name));
  }

  /** The site-wide headers for one response; the CSP is left off a 304 (server/security.ts). */
  for(status: number): [string, string][] {
    const headers = this.headers ?? [];
    return status === 304
      ? headers.filter(([name]) => name !== "content-security-policy")
      : headers;
  }

  /**
   * The headers every hit on `entry` sends alike, flat as writeHead takes them: the site-wide
   * ones, then the entry's and the body's length, and last `x-request-id` with an empty value
   * for each hit to fill in its copy (a copy of the same length: no array grows per request).
   * Made once per entry and kind of answer (status, gzip, whether the cache status is said,
   * https), not per request. Names are in lower case, as the full app sends them (a Headers
   * object keeps them so): the same answer whichever path gave it.
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
      const length: [string, string][] =
        variant.status === 304
          ? []
          : [["Content-Length", String(bodyOf(entry, variant.gzip).length)]];
      headers = [
        ...this.for(variant.status),
        ...entryHeaders(entry, "hit", variant.gzip),
        // As the full app does (server/security.ts): HSTS on https requests only.
        ...(variant.secure ? [["Strict-Transport-Security", HSTS] as [string, string]] : []),
        ...length,
      ]
        .map(([name, value]) => [name.toLowerCase(), value])
        .filter(
          ([name]) =>
            (variant.showCacheStatus || name !== "x-page-cache") &&
            (variant.status !== 304 || name !== "content-type"),
        )
        .flat();
      headers.push("x-request-id", "");
      variants[index] = headers;
    }
    return headers;
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
  const asked = hitHeaders(req.rawHeaders);
  if (!asked || hasSessionCookie(asked.cookie)) return false;
  // The home page and posts answer ActivityPub too (server/middleware/federation.ts).
  if (activityPubWanted(asked.accept)) return false;
  const gzip = gzipOf(asked.acceptEncoding);
  if (gzip === null) return false;
  const entry = cache.get(req.url);
  if (!entry) return false;

  const ifNoneMatch = asked.ifNoneMatch;
  const notModified = ifNoneMatch !== undefined && etagMatches(ifNoneMatch, entry.etag);
  const status = notModified ? 304 : entry.status;
  const variant = { status, gzip: gzip && !notModified, showCacheStatus, secure: isSecure(req) };
  const headers = site.fixedFor(entry, variant).slice();
  headers[headers.length - 1] = randomUUID();
  res.writeHead(status, headers);
  res.end(notModified ? undefined : bodyOf(entry, variant.gzip));
  return true;
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

import type { MiddlewareHandler } from "hono";

import { wholeBodyOf } from "../../app/lib/whole-body";
import type { ResolvedRoute } from "../routing";
import { cacheKeyOf } from "./key";
import type { CacheStatus, Entry, PageCache } from "./store";
import { bodyOf, etagOf } from "./body";

/** Browsers revalidate every time (ETag → 304); a CDN may keep a page a minute and serve it stale while refetching. */
export const PUBLIC_PAGE_CACHE_CONTROL =
  "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
/** Pages rendered for the signed-in owner, and responses that set cookies. */
export const PRIVATE_NO_STORE = "private, no-store";
/** Headers of a rendered response that are kept with it; the rest are per response. */
const KEPT_HEADERS = ["content-type", "content-language", "link", "x-robots-tag"];
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?session=/;

export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && SESSION_COOKIE.test(cookieHeader);
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
    // Accept: `/` and posts answer ActivityPub to its types (server/middleware/federation.ts).
    ["Vary", "Cookie, Accept-Encoding, Accept"],
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
/**
 * What the middleware reads from earlier ones: the route (routing) and whether the request is
 * https (../middleware/sender.ts), which names the session cookie.
 */
type Variables = {
  renderState?: RenderState;
  route?: ResolvedRoute;
  sender?: { secure: boolean };
};

/**
 * Hono middleware in front of React Router, after the route is resolved (server/routing.ts).
 * Public pages (app/route-policy.ts) get CDN-friendly `Cache-Control`
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
    isOwner?: (cookieHeader: string, secure: boolean) => Promise<boolean>;
    afterOwnerWrite?: () => Promise<void>;
  } = {},
): MiddlewareHandler<{ Variables: Variables }> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== "GET" && method !== "HEAD") {
      await next();
      // The owner's next anonymous look at the site must not find the page as it was. Only the
      // owner's successful writes wait for that: a made-up session cookie (its signature fails,
      // before any query) or a refused write costs nothing more than a request without one.
      const cookie = c.req.header("cookie");
      if (afterOwnerWrite && c.res.status < 400 && cookie && hasSessionCookie(cookie)) {
        if (await isOwner(cookie, c.get("sender")?.secure ?? false)) await afterOwnerWrite();
      }
      return;
    }
    const route = c.get("route");
    if (route?.policy.cache !== "public") return next();
    const url = new URL(c.req.url);
    const key = cacheKeyOf(url, route);
    const tags = route.policy.tags?.(route.params) ?? [];
    const state: RenderState = { degraded: false };
    c.set("renderState", state);

    const cookie = c.req.header("cookie");
    const secure = c.get("sender")?.secure ?? false;
    if (cookie !== undefined && hasSessionCookie(cookie) && (await isOwner(cookie, secure))) {
      await next();
      c.res.headers.set("Cache-Control", PRIVATE_NO_STORE);
      c.res.headers.set("X-Page-Cache", "bypass");
      return;
    }

    if (!cache || method === "HEAD") {
      const entry = cache?.get(key);
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

    const cached = cache.get(key);
    if (cached) return respond(c, cached, "hit");

    const kept = new URLSearchParams(key.split("?")[1] ?? "");
    const probation = route.policy.probation?.some((name) => kept.has(name)) ?? false;
    const { entry, rendered } = await cache.fill(
      key,
      async () => {
        await next();
        const res = c.res;
        // A document carries its own bytes; asking for res.body would copy them.
        const whole = wholeBodyOf(res);
        if (res.status !== 200 || res.headers.has("set-cookie") || (!whole && !res.body)) {
          return null;
        }
        // React Router marks what must not be shared (e.g. an error rendered mid-stream).
        if (/no-store|private/.test(res.headers.get("cache-control") ?? "")) return null;
        let body = whole;
        if (!body) {
          body = Buffer.from(await res.arrayBuffer());
          // The body was read: hand the leader's own response back intact if it is not kept.
          c.res = new Response(body, res);
        }
        // An incomplete page (a read failed and shows empty) is served once, never kept.
        if (state.degraded) {
          c.res.headers.set("Cache-Control", PRIVATE_NO_STORE);
          return null;
        }
        return {
          status: res.status,
          headers: KEPT_HEADERS.flatMap((name) => {
            const value = res.headers.get(name);
            return value === null ? [] : [[name, value] as [string, string]];
          }),
          body,
          etag: etagOf(body),
          tags,
        };
      },
      { probation },
    );
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
  const body = bodyOf(entry, gzip);
  headers.set("Content-Length", String(body.length));
  // Node's Buffers are ArrayBuffer-backed (never shared), which TypeScript cannot know.
  return new Response(body as Uint8Array<ArrayBuffer>, { status: entry.status, headers });
}

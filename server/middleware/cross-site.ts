import type { MiddlewareHandler } from "hono";

/** The methods that change nothing. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for every state-changing request (OWASP CSRF cheat sheet): a browser's
 * `Origin` must be this site's, and `Sec-Fetch-Site`, when sent, must not be cross-site.
 * Requests with neither (curl, server-to-server) carry no ambient browser credentials.
 */
export function isCrossSite(request: Request, siteUrl: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  return origin !== new URL(request.url).origin && origin !== new URL(siteUrl).origin;
}

/** Refuses (403) a cross-site request that would change something, before any route reads it. */
export function refuseCrossSite(siteUrl: string): MiddlewareHandler {
  return async (c, next) => {
    if (isCrossSite(c.req.raw, siteUrl)) {
      return c.json({ error: "Cross-site requests cannot change anything here." }, 403);
    }
    await next();
  };
}

import { Hono, type MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";

import type { Env } from "../app/lib/env.server";
import { hasSessionCookie, PRIVATE_NO_STORE } from "./page-cache/middleware";
import type { ResolvedRoute } from "./routing";

/**
 * Response headers for every response (helmet's defaults, tightened; docs/SECURITY.md):
 * an enforced nonce-based CSP (the nonce reaches every script tag through
 * app/entry.server.tsx), no sniffing, no framing, no cross-origin embedding or opener,
 * HSTS when the site is served over https.
 */
/** Strict-Transport-Security on https requests: a year, subdomains too. */
export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * Cross-Origin-Resource-Policy of uploads (/media, server/media/): any origin may embed them, so
 * feed readers and other sites show a post's images; pages and the rest stay same-origin.
 */
export const MEDIA_RESOURCE_POLICY = "cross-origin";

export type SecurityOptions = { https: boolean; development: boolean };

/** The security headers' options for a configuration: the site's scheme, development or not. */
export const securityOptionsOf = (env: Pick<Env, "siteUrl" | "nodeEnv">): SecurityOptions => ({
  https: env.siteUrl.startsWith("https:"),
  development: env.nodeEnv === "development",
});

export function securityHeaders({ https, development }: SecurityOptions): MiddlewareHandler {
  return secureHeaders({
    // Vite's development server injects unnonced scripts and a websocket: no CSP there.
    contentSecurityPolicy: development
      ? undefined
      : {
          defaultSrc: ["'self'"],
          // Browsers with CSP 3 use only the nonce and 'strict-dynamic'; the rest is the
          // fallback older ones read (the strict CSP recipe of web.dev and Lighthouse).
          scriptSrc: [NONCE, "'strict-dynamic'", "'unsafe-inline'", "https:"],
          // React and the editor set style attributes; stylesheets are same-origin files.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // The profile photo may be configured as any https address (app/site.config.ts).
          imgSrc: ["'self'", "data:", "https:"],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
    referrerPolicy: "strict-origin-when-cross-origin",
    // Per request instead (strictTransportSecurity): only an https request gets it.
    strictTransportSecurity: false,
    xFrameOptions: "DENY",
    crossOriginOpenerPolicy: "same-origin",
    crossOriginResourcePolicy: "same-origin",
    permissionsPolicy: {
      accelerometer: [],
      autoplay: [],
      bluetooth: [],
      browsingTopics: [],
      camera: [],
      displayCapture: [],
      geolocation: [],
      gyroscope: [],
      hid: [],
      magnetometer: [],
      microphone: [],
      midi: [],
      payment: [],
      publickeyCredentialsGet: [],
      screenWakeLock: [],
      serial: [],
      usb: [],
      xrSpatialTracking: [],
    },
  });
}

/**
 * `Cache-Control: private, no-store` on private routes (app/route-policy.ts: the owner's pages,
 * sign-in, the APIs), on anything answered to a request with a session cookie (but hashed
 * assets; uploads never reach the app, server/media/), and on every response that sets a cookie.
 */
export function privateResponses(): MiddlewareHandler<{ Variables: { route?: ResolvedRoute } }> {
  return async (c, next) => {
    await next();
    const path = c.req.path;
    const cache = c.get("route")?.policy.cache;
    const privateRoute = cache === "private";
    // Hashed assets are the same bytes for everyone, signed in or not.
    const sharedFile = path.startsWith("/assets/");
    const withSession = hasSessionCookie(c.req.header("cookie")) && !sharedFile;
    if (privateRoute || withSession || c.res.headers.has("set-cookie")) {
      c.res.headers.set("Cache-Control", PRIVATE_NO_STORE);
    }
  };
}

/**
 * HSTS only on an https request: a browser ignores it over http anyway, and a direct request
 * past the proxy is not the site as visitors see it.
 */
export function strictTransportSecurity(): MiddlewareHandler<{
  Variables: { sender: { secure: boolean } };
}> {
  return async (c, next) => {
    await next();
    if (c.get("sender").secure) c.res.headers.set("Strict-Transport-Security", HSTS);
  };
}

/**
 * A 304 has no body of its own: the browser keeps the body it stored, with that body's nonce,
 * and would take a new CSP from the 304 over the stored one. So 304s carry no CSP.
 */
export function keepStoredPolicyOn304(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status === 304) c.res.headers.delete("Content-Security-Policy");
  };
}

/**
 * The headers `securityHeaders` gives every response, as a response of the full app carries
 * them (the CSP with a nonce of its own): for answers made outside Hono (server/media/), so both
 * send the same headers by construction.
 */
export async function siteWideHeaders(options: SecurityOptions): Promise<Response> {
  const app = new Hono();
  app.use(securityHeaders(options));
  app.get("*", (c) => c.body(null, 200));
  return app.request("/");
}

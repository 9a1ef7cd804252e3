import { createHash, randomBytes } from "node:crypto";

import { Hono, type MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

import { INLINE_SCRIPTS } from "../app/features/site";
import type { Env } from "../app/lib/env.server";
import { hasSessionCookie, PRIVATE_NO_STORE } from "./page-cache/middleware";
import type { ResolvedRoute } from "./routing";

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

/** The random bytes in a CSP nonce. */
const NONCE_BYTES = 16;

type NonceVariables = { Variables: { nonce?: string } };

/**
 * The CSP nonce for a render of this route: none for a public route (a cache gives one response
 * to every visitor, so a nonce in it would be shared) nor for a page that does not load React,
 * whose only scripts are INLINE_SCRIPTS, allowed by hash; a fresh one for any other page. The
 * render sets it as the request's `nonce`, which contentSecurityPolicy() then names.
 */
export function nonceFor(route: ResolvedRoute | undefined): string | undefined {
  const policy = route?.policy;
  if (!policy || policy.cache === "public" || policy.hydrate === false) return undefined;
  return randomBytes(NONCE_BYTES).toString("base64");
}

/** A CSP source for each inline script of a page without React: its SHA-256, in base64. */
const SCRIPT_HASHES = INLINE_SCRIPTS.map(
  (script) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`,
).join(" ");

/**
 * The CSP as sent, given its first script sources: this response's nonce when its render made
 * one (nonceFor), otherwise the hashes of INLINE_SCRIPTS. Browsers with CSP 3 use only those and
 * 'strict-dynamic'; `'unsafe-inline' https:` is the fallback older ones read (the strict CSP
 * recipe of web.dev and Lighthouse, nonce- or hash-based).
 */
const policyWith = (https: boolean, scripts: string) =>
  [
    "default-src 'self'",
    `script-src ${scripts} 'strict-dynamic' 'unsafe-inline' https:`,
    // React and the editor set style attributes; stylesheets are same-origin files.
    "style-src 'self' 'unsafe-inline'",
    // The profile photo may be configured as any https address (app/site.config.ts).
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");

/**
 * The Content-Security-Policy of every response (none in development, where Vite's server
 * injects unnonced scripts and a websocket). A 304 carries none: it has no body of its own, and
 * the browser, keeping the body it stored with that body's nonce, would take the 304's policy
 * over the stored one and block every script on the page.
 */
export function contentSecurityPolicy({
  https,
  development,
}: SecurityOptions): MiddlewareHandler<NonceVariables> {
  const hashed = policyWith(https, SCRIPT_HASHES);
  return async (c, next) => {
    await next();
    if (development || c.res.status === 304) return;
    const nonce = c.get("nonce");
    c.res.headers.set(
      "Content-Security-Policy",
      nonce ? policyWith(https, `'nonce-${nonce}'`) : hashed,
    );
  };
}

/**
 * The other headers of every response (helmet's defaults, tightened; docs/SECURITY.md): no
 * sniffing, no framing, no cross-origin embedding or opener, a strict referrer policy, and the
 * browser features the site does not use denied.
 */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    // No CSP here: contentSecurityPolicy() sends it, since its script sources depend on the page.
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
 * The headers every response carries (`contentSecurityPolicy`, with no nonce, and
 * `securityHeaders`), as a response of the full app carries them: for answers made outside Hono
 * (server/media/), so both send the same headers by construction.
 */
export async function siteWideHeaders(options: SecurityOptions): Promise<Response> {
  const app = new Hono();
  app.use(contentSecurityPolicy(options));
  app.use(securityHeaders());
  app.get("*", (c) => c.body(null, 200));
  return app.request("/");
}

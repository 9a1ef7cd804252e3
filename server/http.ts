import path from "node:path";

import type { HttpBindings } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestId, type RequestIdVariables } from "hono/request-id";
import {
  createRequestHandler,
  RouterContextProvider,
  type RequestHandler,
  type ServerBuild,
} from "react-router";

import { appContext } from "../app/context";
import type { Env } from "../app/lib/env.server";
import { BODY_LIMITS, bodyTooLargeText, UNAVAILABLE_RETRY_AFTER } from "../app/lib/limits";
import { errorMessage, logEvent } from "../app/lib/log.server";
import { IMMUTABLE_CACHE } from "../app/features/media";
import { senderOf, trustedProxies, type Sender } from "../app/lib/client-address.server";
import { hasOwnerSession } from "../app/features/owner/index.server";
import type { DatabaseHandle } from "../database/db.server";
import { compress } from "./compress";
import { DatabaseHealth } from "./health";
import { pageCacheMiddleware, type RenderState } from "./page-cache/middleware";
import type { PageCache } from "./page-cache/store";
import { routing, type ResolvedRoute } from "./routing";
import { HSTS, keepStoredPolicyOn304, privateResponses, securityHeaders } from "./security";

/** Unhashed files from public/ (photo, CV, favicon) may change between deploys. */
export const PUBLIC_FILE_CACHE = "public, max-age=3600";

export type HttpOptions = {
  env: Env;
  database: DatabaseHandle;
  /** Loads React Router's server build (the virtual module, or Vite's dev copy). */
  loadBuild: () => Promise<ServerBuild>;
  /**
   * Development: `loadBuild` gives a new build after each edit, so React Router prepares its
   * handler (route tree, matcher) from it on every request. Otherwise it does so once.
   */
  liveBuild?: boolean;
  /** Folder of the client build; omitted in development, where Vite serves assets. */
  clientDir?: string;
  wakeDelivery?: () => void;
  /** Rendered public pages (server/page-cache/); null or omitted renders every request. */
  pageCache?: PageCache | null;
  /** Resolves once this instance has seen its own database changes (the page cache's barrier). */
  afterOwnerWrite?: () => Promise<void>;
  /** Settles once the owner's password is in place; until then, changes wait for it. */
  ownerReady?: Promise<void>;
};

/** The HTTP application: health, static assets, then every other request to React Router. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

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

type Variables = RequestIdVariables & {
  sender: Sender;
  secureHeadersNonce?: string;
  renderState?: RenderState;
  route?: ResolvedRoute;
};

/** What a request that carries a body may be: forms, and JSON for the APIs. */
const ACCEPTED_BODY_TYPES =
  /^(?:application\/x-www-form-urlencoded|multipart\/form-data|application\/json)\s*(?:;|$)/i;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return request.headers.has("transfer-encoding") || (length !== null && length !== "0");
}

export function createHttpApp({
  env,
  database,
  loadBuild,
  liveBuild = false,
  clientDir,
  wakeDelivery,
  pageCache,
  afterOwnerWrite,
  ownerReady,
}: HttpOptions) {
  const app = new Hono<{ Bindings: HttpBindings; Variables: Variables }>();
  // Given a function, React Router rebuilds its route tree and matcher on every request, as
  // development needs. A bundled build never changes: it is loaded once and React Router is
  // given the build itself (fifth round of docs/measurements/v8-flags-and-rendering.md).
  let bundled: Promise<{ build: ServerBuild; handler: RequestHandler }> | undefined;
  const bundledBuild = () =>
    (bundled ??= loadBuild().then((build) => ({
      build,
      handler: createRequestHandler(build, env.nodeEnv),
    })));
  const currentBuild = liveBuild ? loadBuild : async () => (await bundledBuild()).build;
  const handleRequest: RequestHandler = liveBuild
    ? createRequestHandler(loadBuild, env.nodeEnv)
    : async (request, context) => (await bundledBuild()).handler(request, context);
  const health = new DatabaseHealth((timeoutMs) => database.ping(timeoutMs));

  // Anything thrown outside React Router: logged with the request id, answered without details.
  app.onError((error, c) => {
    logEvent("error", "server-error", {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      error: errorMessage(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    return c.text("Internal Server Error", 500);
  });

  // Who sent it, behind the trusted proxies (TRUST_PROXY), and whether over https.
  const trust = trustedProxies(env.trustProxy);
  const siteIsHttps = env.siteUrl.startsWith("https:");
  app.use((c, next) => {
    c.set(
      "sender",
      senderOf(trust, siteIsHttps, c.env?.incoming?.socket?.remoteAddress, c.req.raw.headers),
    );
    return next();
  });

  // Our own id for every request, never the client's (logs must not be forgeable).
  app.use(requestId({ headerName: "", generator: () => crypto.randomUUID() }));
  app.use(async (c, next) => {
    await next();
    c.res.headers.set("X-Request-Id", c.get("requestId"));
  });
  app.use(keepStoredPolicyOn304());
  app.use(
    securityHeaders({
      https: siteIsHttps,
      development: env.nodeEnv === "development",
    }),
  );
  // HSTS only on an https request: a browser ignores it over http anyway, and a direct
  // request past the proxy is not the site as visitors see it.
  app.use(async (c, next) => {
    await next();
    if (c.get("sender").secure) c.res.headers.set("Strict-Transport-Security", HSTS);
  });

  app.get("/healthz", async (c) => {
    c.header("Cache-Control", "no-store");
    try {
      await database.ping();
      return c.json({ status: "ok" });
    } catch (error) {
      logEvent("error", "health-check-failed", {
        requestId: c.get("requestId"),
        error: errorMessage(error),
      });
      return c.json({ status: "unavailable" }, 503);
    }
  });

  // A sign-in in the server's first moments is checked against the password it was started with.
  if (ownerReady) {
    app.use(async (c, next) => {
      if (!SAFE_METHODS.has(c.req.method)) await ownerReady;
      await next();
    });
  }

  // Which route a path is, for everything below; non-canonical spellings answer 301 here.
  app.use(routing(async () => (await currentBuild()).routes));

  app.use(async (c, next) => {
    if (isCrossSite(c.req.raw, env.siteUrl)) {
      return c.json({ error: "Cross-site requests cannot change anything here." }, 403);
    }
    await next();
  });

  // Bad bodies get a clear answer before any route reads them.
  app.use(async (c, next) => {
    if (!BODY_METHODS.has(c.req.method) || !hasBody(c.req.raw)) return next();
    const type = c.req.header("content-type") ?? "";
    if (!ACCEPTED_BODY_TYPES.test(type)) {
      return c.json(
        {
          ok: false,
          error: `Unsupported content type ${JSON.stringify(type.slice(0, 100))}: send a form (application/x-www-form-urlencoded or multipart/form-data) or application/json.`,
        },
        415,
      );
    }
    return next();
  });
  // Each route's own limit (app/route-policy.ts), forms' by default; one middleware per limit.
  const limits = new Map<number, MiddlewareHandler>();
  app.use((c, next) => {
    if (!BODY_METHODS.has(c.req.method)) return next();
    const limit = c.get("route")?.policy.bodyLimit ?? BODY_LIMITS.form;
    let check = limits.get(limit);
    if (!check) {
      const error = bodyTooLargeText(limit);
      check = bodyLimit({ maxSize: limit, onError: (c) => c.json({ ok: false, error }, 413) });
      limits.set(limit, check);
    }
    return check(c, next);
  });

  app.use(compress());

  if (clientDir) {
    const root = path.resolve(clientDir);
    app.use(
      "/assets/*",
      serveStatic({
        root,
        onFound: (_path, c) => c.header("Cache-Control", IMMUTABLE_CACHE),
      }),
    );
    app.use(
      "*",
      serveStatic({
        root,
        onFound: (_path, c) => c.header("Cache-Control", PUBLIC_FILE_CACHE),
      }),
    );
  }

  app.use(privateResponses());
  app.use(
    pageCacheMiddleware(pageCache ?? null, {
      afterOwnerWrite,
      isOwner: (cookieHeader, secure) => hasOwnerSession(cookieHeader, secure, database.db),
    }),
  );

  app.all("*", async (c) => {
    // Set by the page cache for its pages; other pages do not call degraded().
    const state = c.get("renderState") ?? { degraded: false };
    const render = (databaseUnavailable: boolean) => {
      const context = new RouterContextProvider();
      context.set(appContext, {
        db: database.db,
        env,
        clientAddress: c.get("sender").clientAddress,
        secure: c.get("sender").secure,
        wakeDelivery,
        nonce: c.get("secureHeadersNonce"),
        requestId: c.get("requestId"),
        databaseUnavailable,
        degraded: () => {
          state.degraded = true;
        },
      });
      return handleRequest(c.req.raw, context);
    };
    if (health.isDown) return unavailable(await render(true));
    const response = await render(false);
    // A server error, or a page that had to show a section empty, may mean the database is
    // gone: ask it, and if so answer 503 instead.
    if ((response.status < 500 && !state.degraded) || (await health.check())) return response;
    if (c.req.method === "GET" || c.req.method === "HEAD") {
      await response.body?.cancel();
      return unavailable(await render(true));
    }
    // The body was read by the action: keep its answer, with the status that explains it.
    return unavailable(new Response(response.body, { status: 503, headers: response.headers }));
  });

  return app;
}

function unavailable(response: Response): Response {
  response.headers.set("Retry-After", UNAVAILABLE_RETRY_AFTER);
  response.headers.set("Cache-Control", "no-store");
  return response;
}

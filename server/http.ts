import path from "node:path";

import type { HttpBindings } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";

import { appContext } from "../app/context";
import type { Env } from "../app/lib/env.server";
import type { DatabaseHandle } from "../database/db.server";

export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";
/** Unhashed files from public/ (photo, CV, favicon) may change between deploys. */
export const PUBLIC_FILE_CACHE = "public, max-age=3600";

export type HttpOptions = {
  env: Env;
  database: DatabaseHandle;
  /** Loads React Router's server build (the virtual module, or Vite's dev copy). */
  loadBuild: () => Promise<ServerBuild>;
  /** Folder of the client build; omitted in development, where Vite serves assets. */
  clientDir?: string;
  wakeDelivery?: () => void;
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

export function createHttpApp({ env, database, loadBuild, clientDir, wakeDelivery }: HttpOptions) {
  const app = new Hono<{ Bindings: HttpBindings }>();
  const handleRequest = createRequestHandler(loadBuild, env.nodeEnv);

  app.get("/healthz", async (c) => {
    c.header("Cache-Control", "no-store");
    try {
      await database.ping();
      return c.json({ status: "ok" });
    } catch (error) {
      console.error("Health check failed:", error instanceof Error ? error.message : error);
      return c.json({ status: "unavailable" }, 503);
    }
  });

  app.use(async (c, next) => {
    if (isCrossSite(c.req.raw, env.siteUrl)) {
      return c.json({ error: "Cross-site requests cannot change anything here." }, 403);
    }
    await next();
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

  app.all("*", (c) => {
    const context = new RouterContextProvider();
    context.set(appContext, {
      db: database.db,
      env,
      clientAddress: c.env?.incoming?.socket?.remoteAddress ?? "unknown",
      wakeDelivery,
    });
    return handleRequest(c.req.raw, context);
  });

  return app;
}

import path from "node:path";

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
};

/** The HTTP application: health, static assets, then every other request to React Router. */
export function createHttpApp({ env, database, loadBuild, clientDir }: HttpOptions): Hono {
  const app = new Hono();
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
    context.set(appContext, { db: database.db, env });
    return handleRequest(c.req.raw, context);
  });

  return app;
}

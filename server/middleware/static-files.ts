import path from "node:path";

import { serveStatic } from "@hono/node-server/serve-static";
import type { MiddlewareHandler } from "hono";

import { IMMUTABLE_CACHE } from "../../app/features/media";

/** Unhashed files from public/ (photo, CV, favicon) may change between deploys. */
export const PUBLIC_FILE_CACHE = "public, max-age=3600";

/**
 * The client build's files: content-hashed assets kept by everyone for good, the rest (copied
 * from public/) for an hour. A path no file has goes on to the routes.
 */
export function staticFiles(clientDir: string): {
  assets: MiddlewareHandler;
  publicFiles: MiddlewareHandler;
} {
  const root = path.resolve(clientDir);
  return {
    assets: serveStatic({
      root,
      onFound: (_path, c) => c.header("Cache-Control", IMMUTABLE_CACHE),
    }),
    publicFiles: serveStatic({
      root,
      onFound: (_path, c) => c.header("Cache-Control", PUBLIC_FILE_CACHE),
    }),
  };
}

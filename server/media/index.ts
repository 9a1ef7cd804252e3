import type { IncomingMessage } from "node:http";
import path from "node:path";

import {
  MEDIA_DELETED_CHANNEL,
  readMedia,
  readMediaInfos,
} from "../../app/features/media/index.server";
import type { DatabaseHandle } from "../../database/db.server";
import { SiteHeaders } from "../fast-path";
import { siteWideHeaders, type SecurityOptions } from "../security";
import { MediaCache, type MediaSource } from "./cache";
import { mediaHandler } from "./handler";

export { MediaCache, type MediaSource } from "./cache";
export { mediaHandler, MEDIA_PREFIX } from "./handler";

/** The local copies' folder under DATA_DIR. */
export const MEDIA_CACHE_DIR = "media-cache";

/**
 * The database as the cache reads it: a file with its bytes (read a part per statement, so
 * other queries run between them), and which files exist.
 */
export const mediaSourceOf = (database: DatabaseHandle): MediaSource => ({
  read: (hash) => readMedia(database.db, hash),
  infos: (hashes) => readMediaInfos(database.db, hashes),
});

/**
 * Uploads served at the listener (./handler.ts) from local copies under `dataDir`
 * (./cache.ts), kept in step with the database: a deleted row's notice drops its copy on every
 * instance, and when notices may have been missed (a PostgreSQL listener that reconnected) every
 * copy is checked again, as at start, since copies left by an earlier run may have outlived
 * their rows (a restore).
 */
export async function startMediaFiles({
  database,
  dataDir,
  maxBytes,
  security,
  isSecure,
  sendStallMs,
  source = mediaSourceOf(database),
  log,
}: {
  database: DatabaseHandle;
  dataDir: string;
  maxBytes: number;
  security: SecurityOptions;
  isSecure?: (req: IncomingMessage) => boolean;
  /** Tests shorten the send timeout (CONNECTION_LIMITS.sendStallMs). */
  sendStallMs?: number;
  /** Tests count the database's reads through this. */
  source?: MediaSource;
  /** Where the copies' problems go (the structured log unless said otherwise). */
  log?: (event: string, fields: Record<string, unknown>) => void;
}) {
  const dir = path.join(dataDir, MEDIA_CACHE_DIR);
  const cache = new MediaCache({ dir, maxBytes, source, log });
  // Listening first: a row deleted while the copies are checked is still heard of.
  const listener = await database.listen(
    MEDIA_DELETED_CHANNEL,
    (hash) => cache.drop(hash),
    () => void cache.verify(),
  );
  await cache.start();
  const site = new SiteHeaders();
  site.take(await siteWideHeaders(security));
  return {
    cache,
    handle: mediaHandler({ cache, site, isSecure, sendStallMs }),
    close: () => listener.close(),
  };
}

export type MediaFiles = Awaited<ReturnType<typeof startMediaFiles>>;

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";

import type { ServerBuild } from "react-router";

import { noticeTagOf } from "../app/lib/cache-tags";
import { EnvError, parseEnv, type Env } from "../app/lib/env.server";
import { connectionIsHttps, trustedProxies } from "../app/lib/client-address.server";
import { CONNECTION_LIMITS } from "../app/lib/limits";
import { errorMessage, logEvent } from "../app/lib/log.server";
import { setOutgoingFetchPolicy } from "../app/lib/safe-fetch.server";
import { demoContent } from "../content/demo";
import { openDatabase, type DatabaseHandle } from "../database/db.server";
import { templatePath } from "../database/pglite-template.mjs";
import { startBackupSchedule } from "./backups";
import { startPublisher } from "./publisher";
import { seedDemoContent } from "../database/seed.server";
import { ensureOwnerPassword, setOwnerPassword } from "../app/features/owner/index.server";
import { mailTransportFrom } from "../app/features/contact/index.server";
import { siteConfig } from "../app/site.config";
import { readProfile, SEED_PROFILE } from "../app/features/site/index.server";
import { ensureProfile, forgetProfile } from "../app/features/profile/index.server";
import { releaseDataDirLock, takeDataDirLock } from "./data-dir-lock";
import { makePrivate } from "./private-files";
import { startDeliveryWorker } from "./delivery";
import { startJobWorker } from "./jobs";
import { collectAtRest, fullCollection } from "./at-rest";
import { stopOnSignals } from "./shutdown";
import { startNewsletterWorker } from "./newsletter";
import { createHttpApp } from "./http";
import { siteListener } from "./fast-path";
import { forwardedProtoOf } from "./hit-headers";
import { startMediaFiles } from "./media";
import { securityOptionsOf } from "./security";
import { isBarrier, linkPageCache, PAGE_CACHE_CHANNEL } from "./page-cache/link";
import { createRouteResolver, recordsOf } from "./routing";
import { PageCache } from "./page-cache/store";
import { cdnPurgeOnChange, configureCdnPurge, purgeTargetsOf } from "./page-cache/purge";

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export type MainOptions = {
  /** The project folder (where database/migrations and the build live). */
  root: string;
  /** The build's folder in `root` (server/build-directory.mjs); `build` unless said otherwise. */
  buildDirectory?: string;
  /** Development only: Vite's middleware and its live copy of the server build. */
  dev?: { middlewares: Middleware; loadBuild: () => Promise<ServerBuild> };
};

/** A virtual module: React Router's Vite plugin bundles the app here. */
const bundledBuild = () => import("virtual:react-router/server-build");

/** The whole site as a Hono app, for the server below and for benchmarks (bench/). */
export function createSiteApp({
  env,
  database,
  root,
  buildDirectory = "build",
  loadBuild,
  wakeDelivery,
  wakeJobs,
  pageCache,
  afterOwnerWrite,
  ownerReady,
}: {
  env: Env;
  database: DatabaseHandle;
  root: string;
  buildDirectory?: string;
  /** Development: Vite's live build; otherwise the bundled one. */
  loadBuild?: () => Promise<ServerBuild>;
  wakeDelivery?: () => void;
  wakeJobs?: () => void;
  pageCache?: PageCache | null;
  afterOwnerWrite?: () => Promise<void>;
  ownerReady?: Promise<void>;
}) {
  return createHttpApp({
    env,
    database,
    wakeDelivery,
    wakeJobs,
    pageCache,
    afterOwnerWrite,
    ownerReady,
    loadBuild: loadBuild ?? bundledBuild,
    liveBuild: loadBuild !== undefined,
    clientDir: loadBuild ? undefined : path.join(root, buildDirectory, "client"),
  });
}

export { openDatabase, parseEnv, setOwnerPassword, takeDataDirLock, releaseDataDirLock };
export {
  BackupError,
  backupFileName,
  contentFingerprint,
  readBackup,
  restoreBackup,
  writeBackup,
} from "../database/backup.server";
// For scripts/import.mjs: exports of other blogs read, planned and imported.
export { setOutgoingFetchPolicy };
export {
  dryRun,
  planLines,
  readExport,
  readExportFiles,
  runImport,
} from "../app/features/import/index.server";
// For scripts/export.mjs: every post as Markdown in a zip.
export { exportPosts } from "../app/features/posts/index.server";
// For tests/built: the cache, the uploads and the node:http listener as the server runs them.
export { PageCache, siteListener, startMediaFiles };
// For bench/media.mjs: files stored as uploads are (their bytes in parts, then their rows).
export { storeMedia } from "../app/features/media/index.server";
// For bench/cards.mjs: share cards drawn as the cards' job draws them.
export { drawCards } from "../app/features/cards/index.server";
/** For tests/built: the bundle's routes, each with its module, as React Router is given them. */
export const routeManifest = async () => (await bundledBuild()).routes;

/** Starts the server: configuration, database, migrations, seed, HTTP, graceful shutdown. */
export async function main({ root, buildDirectory = "build", dev }: MainOptions) {
  const env = envOrExit();
  setOutgoingFetchPolicy({ allowPrivate: env.fetchAllowPrivate });
  const dataDir = path.resolve(root, env.dataDir);
  // What this process writes (the database's files, backups) is its user's alone.
  process.umask(0o077);
  // One process at a time may open an embedded database (PGlite has no locking of its own).
  if (!env.databaseUrl) takeDataDirLock(dataDir);
  const database = await openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir,
    // A development server has no build, so no template: PGlite runs initdb then.
    template: dev ? undefined : templatePath(path.join(root, buildDirectory)),
    onWal: (event, fields) => logEvent("warn", event, fields),
  });
  // Files copied from the build's template, or left by an older version, keep their modes.
  if (!env.databaseUrl) makePrivate(dataDir);
  await migrateAndSeed(database, root, env);
  const ownerReady = ownerPasswordInPlace(database, env);

  // A route without a policy (app/route-policy.ts) stops the server here, not at its first request.
  const routes = recordsOf((await (dev?.loadBuild ?? bundledBuild)()).routes);
  createRouteResolver(routes);
  // CDN_PURGE_URL: each change's public URLs are sent there too (./page-cache/purge.ts).
  configureCdnPurge(
    env.cdnPurge && { ...env.cdnPurge, siteUrl: env.siteUrl, targets: purgeTargetsOf(routes) },
  );

  const workers = startWorkers(database, root, env);
  // Development renders every request, so edits to the code show at once.
  const pageCache = env.pageCache && !dev ? new PageCache({ maxBytes: env.pageCacheBytes }) : null;
  const changes = await followChanges(database, pageCache, workers);
  const app = createSiteApp({
    env,
    database,
    root,
    buildDirectory,
    loadBuild: dev?.loadBuild,
    wakeDelivery: workers.delivery.wake,
    wakeJobs: workers.jobs.wake,
    pageCache,
    afterOwnerWrite: changes.pageCacheLink?.barrier,
    ownerReady,
  });
  const isSecure = secureRequests(env);
  // Uploads, at the listener from local copies under DATA_DIR (server/media/).
  const media = await startMediaFiles({
    database,
    dataDir,
    maxBytes: env.mediaCacheBytes,
    security: securityOptionsOf(env),
    isSecure,
  });
  const seen = { requests: 0 };
  const server = createSiteServer({
    app,
    pageCache,
    env,
    isSecure,
    media: media.handle,
    dev,
    seen,
  });
  server.listen(env.port, env.host, () => {
    console.log(`Listening on http://${env.host}:${env.port} (${database.kind} database)`);
  });
  // With the production flags (server/node-flags.mjs), the start's garbage and that of later
  // bursts is given back once the server is quiet.
  const atRest = globalThis.gc
    ? collectAtRest({
        collect: fullCollection(globalThis.gc),
        busy: workers.jobs.busy,
        requests: () => seen.requests,
      })
    : null;
  // The delivery and job workers finish the e-mail or job in hand before the database closes.
  stopOnSignals(
    server,
    async () => {
      await workers.delivery.stop();
      await workers.newsletter.stop();
      await workers.backups?.stop();
      await workers.publisher.stop();
      atRest?.stop();
      await workers.jobs.stop();
      await changes.pageCacheLink?.close();
      await changes.profileListener?.close();
      await media.close();
      await database.close();
    },
    () => {
      if (!env.databaseUrl) releaseDataDirLock(dataDir);
    },
  );
  return server;
}

/** The configuration, or the process ends saying what is wrong with it. */
function envOrExit(): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function migrateAndSeed(database: DatabaseHandle, root: string, env: Env) {
  await database.migrate(path.join(root, "database/migrations"), async (db) => {
    // Every database has a profile: a new one (or one from before it was stored) starts as
    // the site configuration says.
    await ensureProfile(db, SEED_PROFILE);
    if (!env.seedDemo) return;
    const result = await seedDemoContent(db, demoContent);
    if (result === "seeded") console.log("Seeded the demo content into the empty database.");
  });
}

/**
 * Hashing the owner's password takes a third of a second on the thread pool: pages are served
 * meanwhile, and requests that could sign in wait for this (server/middleware/owner-ready.ts).
 */
function ownerPasswordInPlace(database: DatabaseHandle, env: Env): Promise<void> {
  return ensureOwnerPassword(database.db, env.ownerPassword).then(
    (generated) => {
      if (!generated) return;
      console.log(
        `Owner password (shown once, stored only as a hash): ${generated}\n` +
          "Sign in at /login. Set OWNER_PASSWORD, or run npm run owner:password, to change it.",
      );
    },
    (error: unknown) => {
      console.error("Setting the owner's password failed:", errorMessage(error));
      process.exit(1);
    },
  );
}

/** What runs beside the requests: backups, contact delivery, scheduled publishing, the job queue. */
function startWorkers(database: DatabaseHandle, root: string, env: Env) {
  // BACKUP_DIR: a backup a day, the newest BACKUP_KEEP kept (database/backup.server.ts).
  const backups = env.backupDir
    ? startBackupSchedule(database.db, path.resolve(root, env.backupDir), env.backupKeep)
    : null;
  const delivery = startDeliveryWorker(
    database.db,
    mailTransportFrom(env),
    env.ownerEmail
      ? { fixed: env.ownerEmail }
      : { read: async () => (await readProfile(database.db)).email },
    env.mailFrom ?? siteConfig.email,
  );
  // Scheduled posts go public at their time on every instance, with no request.
  const publisher = startPublisher(database.db);
  // Background work of every feature, the recurring purges included (docs/decisions/025-job-queue.md).
  const jobs = startJobWorker(database.db);
  // New posts to subscribers, at NEWSLETTER_RATE for all instances (docs/decisions/037-newsletter.md).
  const newsletter = startNewsletterWorker(database.db, mailTransportFrom(env, { pool: true }), {
    site: { url: env.siteUrl, name: siteConfig.name, from: env.mailFrom ?? siteConfig.email },
    perMinute: env.newsletterRate,
  });
  return { backups, delivery, publisher, jobs, newsletter };
}

/**
 * The database's change notices, followed: the profile each render reads is remembered in
 * memory, and a change made by another instance (or by SQL) is forgotten on its notice, before
 * the pages showing it are dropped. A post's change notice may carry a new schedule: the
 * publisher looks again; or a first publication's newsletter job: the job worker looks.
 */
async function followChanges(
  database: DatabaseHandle,
  pageCache: PageCache | null,
  workers: { publisher: { changed(): void }; jobs: { wake(): void } },
) {
  const forgetOnChange = (payload: string | null) => {
    if (payload !== null && isBarrier(payload)) return;
    // Null: notices may have been missed. A notice not understood may be about anything.
    const tag = payload === null ? null : noticeTagOf(payload);
    if (tag !== "posts") forgetProfile(database.db);
    if (tag === null || tag === "posts") workers.publisher.changed();
    // A change to a post or the profile may have added a job (a share card to draw, a post's
    // first publication its newsletter, migration 0014): committed now, so a look finds it at
    // once instead of at the next poll.
    workers.jobs.wake();
    purgeCdn(payload);
  };
  const purgeCdn = cdnPurgeOnChange(database.db, workers.jobs.wake);
  const pageCacheLink = pageCache ? await linkPageCache(pageCache, database, forgetOnChange) : null;
  const profileListener = pageCache
    ? null
    : await database.listen(PAGE_CACHE_CHANNEL, forgetOnChange, () => forgetOnChange(null));
  return { pageCacheLink, profileListener };
}

/** Whether a request came over https, as the full app decides (server/middleware/sender.ts). */
function secureRequests(env: Env) {
  const trust = trustedProxies(env.trustProxy);
  const siteIsHttps = env.siteUrl.startsWith("https:");
  return (req: IncomingMessage) =>
    connectionIsHttps(
      trust,
      siteIsHttps,
      () => req.socket.remoteAddress,
      () => forwardedProtoOf(req.rawHeaders),
    );
}

/**
 * The node:http server: uploads and cache hits at the listener (./media/, ./fast-path.ts), the
 * rest to the app. Exported for tests/built, which start it as the server does.
 */
export function createSiteServer({
  app,
  pageCache,
  env,
  isSecure = secureRequests(env),
  media,
  dev,
  seen = { requests: 0 },
}: {
  app: ReturnType<typeof createSiteApp>;
  pageCache: PageCache | null;
  env: Env;
  isSecure?: (req: IncomingMessage) => boolean;
  media?: (req: IncomingMessage, res: ServerResponse) => boolean;
  dev?: MainOptions["dev"];
  /** Counts the requests given to the server (./at-rest.ts waits for a period with none). */
  seen?: { requests: number };
}) {
  const listener = siteListener(app.fetch, pageCache, {
    showCacheStatus: env.pageCacheHeader,
    isSecure,
    media,
  });
  const server = createServer(
    {
      headersTimeout: CONNECTION_LIMITS.headersMs,
      requestTimeout: CONNECTION_LIMITS.requestMs,
      keepAliveTimeout: CONNECTION_LIMITS.keepAliveMs,
      connectionsCheckingInterval: CONNECTION_LIMITS.checkEveryMs,
    },
    dev
      ? (req, res) => dev.middlewares(req, res, () => listener(req, res))
      : (req, res) => {
          seen.requests++;
          return listener(req, res);
        },
  );
  server.maxConnections = CONNECTION_LIMITS.maxConnections;
  // A socket with no traffic either way for this long is closed, whatever it was doing.
  server.timeout = CONNECTION_LIMITS.idleSocketMs;
  return server;
}

import type { HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import type { RequestIdVariables } from "hono/request-id";

import type { Env } from "../app/lib/env.server";
import { hasOwnerSession } from "../app/features/owner/index.server";
import type { DatabaseHandle } from "../database/db.server";
import { compress } from "./compress";
import { federation } from "./middleware/federation";
import { refuseCrossSite } from "./middleware/cross-site";
import { answerServerError } from "./middleware/errors";
import { healthCheck } from "./middleware/health-check";
import { holdWritesUntil } from "./middleware/owner-ready";
import { reactRouterHandler, renderPages, type BuildOptions } from "./middleware/react-router";
import { acceptedBodyTypes, bodyLimits } from "./middleware/request-bodies";
import { requestIds } from "./middleware/request-id";
import { sender, type SenderVariables } from "./middleware/sender";
import { staticFiles } from "./middleware/static-files";
import { importedRedirects } from "./imported-redirects";
import { movedPostPath } from "./moved-posts";
import { pageCacheMiddleware, type RenderState } from "./page-cache/middleware";
import type { PageCache } from "./page-cache/store";
import { routing, type ResolvedRoute } from "./routing";
import {
  contentSecurityPolicy,
  privateResponses,
  securityHeaders,
  securityOptionsOf,
  strictTransportSecurity,
} from "./security";

export type HttpOptions = BuildOptions & {
  env: Env;
  database: DatabaseHandle;
  /** Folder of the client build; omitted in development, where Vite serves assets. */
  clientDir?: string;
  wakeDelivery?: () => void;
  /** Look for due jobs now (an inbox queued an Accept). */
  wakeJobs?: () => void;
  /** Rendered public pages (server/page-cache/); null or omitted renders every request. */
  pageCache?: PageCache | null;
  /** Resolves once this instance has seen its own database changes (the page cache's barrier). */
  afterOwnerWrite?: () => Promise<void>;
  /** Settles once the owner's password is in place; until then, changes wait for it. */
  ownerReady?: Promise<void>;
};

type Variables = RequestIdVariables &
  SenderVariables & {
    nonce?: string;
    renderState?: RenderState;
    route?: ResolvedRoute;
  };

/**
 * The HTTP application, one middleware after another (each in ./middleware/ or beside this
 * file): who sent the request, its id, the security headers, health; then which route it is,
 * the checks every request with a body passes, compression, static files, privacy, the page
 * cache, and last React Router.
 */
export function createHttpApp({
  env,
  database,
  loadBuild,
  liveBuild,
  clientDir,
  wakeDelivery,
  wakeJobs,
  pageCache,
  afterOwnerWrite,
  ownerReady,
}: HttpOptions) {
  const app = new Hono<{ Bindings: HttpBindings; Variables: Variables }>();
  const { currentBuild, handleRequest } = reactRouterHandler({ loadBuild, liveBuild }, env.nodeEnv);

  app.onError(answerServerError);
  app.use(sender(env));
  app.use(requestIds());
  app.use(contentSecurityPolicy(securityOptionsOf(env)));
  app.use(securityHeaders());
  app.use(strictTransportSecurity());

  app.get("/healthz", healthCheck(database));

  if (ownerReady) app.use(holdWritesUntil(ownerReady));
  // ActivityPub (WebFinger, NodeInfo, /ap/, and `/` or a post asked for as ActivityPub).
  app.use(federation({ env, database, wakeJobs }));
  // Which route a path is, for everything below; non-canonical spellings answer 301 here.
  app.use(
    routing(async () => (await currentBuild()).routes, { movedTo: movedPostPath(database.db) }),
  );
  // An imported post's old URLs (`/?p=123`, `/2020/01/02/slug/`) answer 301 to the post.
  app.use(importedRedirects(database.db));
  app.use(refuseCrossSite(env.siteUrl));
  app.use(acceptedBodyTypes());
  app.use(bodyLimits());
  app.use(compress());

  if (clientDir) {
    const { assets, publicFiles } = staticFiles(clientDir);
    app.use("/assets/*", assets);
    app.use("*", publicFiles);
  }

  app.use(privateResponses());
  app.use(
    pageCacheMiddleware(pageCache ?? null, {
      afterOwnerWrite,
      isOwner: (cookieHeader, secure) => hasOwnerSession(cookieHeader, secure, database.db),
    }),
  );
  app.all("*", renderPages({ env, database, handleRequest, wakeDelivery }));

  return app;
}

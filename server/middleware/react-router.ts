import type { Handler } from "hono";
import type { RequestIdVariables } from "hono/request-id";
import {
  createRequestHandler,
  RouterContextProvider,
  type RequestHandler,
  type ServerBuild,
} from "react-router";

import { appContext } from "../../app/context";
import type { Env } from "../../app/lib/env.server";
import { UNAVAILABLE_RETRY_AFTER } from "../../app/lib/limits";
import type { DatabaseHandle } from "../../database/db.server";
import { DatabaseHealth } from "../health";
import type { RenderState } from "../page-cache/middleware";
import { routeAccessFor } from "../route-access";
import type { ResolvedRoute } from "../routing";
import { nonceFor } from "../security";
import type { SenderVariables } from "./sender";

export type BuildOptions = {
  /** Loads React Router's server build (the virtual module, or Vite's dev copy). */
  loadBuild: () => Promise<ServerBuild>;
  /**
   * Development: `loadBuild` gives a new build after each edit, so React Router prepares its
   * handler (route tree, matcher) from it on every request. Otherwise it does so once.
   */
  liveBuild?: boolean;
};

/**
 * React Router's request handler for the build, and the build itself, with the route policy's
 * access enforced on its routes (../route-access.ts).
 */
export function reactRouterHandler(
  { loadBuild, liveBuild = false }: BuildOptions,
  mode: string,
): { currentBuild: () => Promise<ServerBuild>; handleRequest: RequestHandler } {
  const guarded = routeAccessFor();
  const load = async () => guarded(await loadBuild());
  if (liveBuild) return { currentBuild: load, handleRequest: createRequestHandler(load, mode) };
  // Given a function, React Router rebuilds its route tree and matcher on every request, as
  // development needs. A bundled build never changes: it is loaded once and React Router is
  // given the build itself (fifth round of docs/measurements/v8-flags-and-rendering.md).
  let bundled: Promise<{ build: ServerBuild; handler: RequestHandler }> | undefined;
  const bundledBuild = () =>
    (bundled ??= load().then((build) => ({
      build,
      handler: createRequestHandler(build, mode),
    })));
  return {
    currentBuild: async () => (await bundledBuild()).build,
    handleRequest: async (request, context) => (await bundledBuild()).handler(request, context),
  };
}

type RenderVariables = RequestIdVariables &
  SenderVariables & { nonce?: string; route?: ResolvedRoute; renderState?: RenderState };

/**
 * The last handler: React Router renders the request with the app's context (app/context.ts).
 * While the database is down (../health.ts), or when a render's failure turns out to be its
 * being down, the answer is 503 and says when to try again.
 */
export function renderPages({
  env,
  database,
  handleRequest,
  wakeDelivery,
}: {
  env: Env;
  database: DatabaseHandle;
  handleRequest: RequestHandler;
  wakeDelivery?: () => void;
}): Handler<{ Variables: RenderVariables }> {
  const health = new DatabaseHealth((timeoutMs) => database.ping(timeoutMs));
  return async (c) => {
    // Set by the page cache for its pages; other pages do not call degraded().
    const state = c.get("renderState") ?? { degraded: false };
    // Made once: a render retried after asking the database keeps it.
    const nonce = nonceFor(c.get("route"));
    if (nonce) c.set("nonce", nonce);
    const render = (databaseUnavailable: boolean) => {
      const context = new RouterContextProvider();
      context.set(appContext, {
        db: database.db,
        env,
        clientAddress: c.get("sender").clientAddress,
        secure: c.get("sender").secure,
        wakeDelivery,
        nonce,
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
  };
}

function unavailable(response: Response): Response {
  response.headers.set("Retry-After", UNAVAILABLE_RETRY_AFTER);
  response.headers.set("Cache-Control", "no-store");
  return response;
}

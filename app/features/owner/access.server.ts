import { data, redirect, type MiddlewareFunction } from "react-router";

import { isOwner } from "./session.server";

/** What the owner's gate needs to know of the route it guards (read from its module). */
export type GuardedRoute = {
  /** It renders a page (its module has a component): a visitor asking for it is sent to sign in. */
  page: boolean;
  loader: boolean;
  action: boolean;
  /**
   * The methods its action takes, when it refuses the others itself (app/route-policy.ts
   * `actionMethods`); omitted, every write is the action's.
   */
  actionMethods?: readonly string[];
};

/** What anyone but the owner gets for a write, or for an owner-only API. */
export const SIGN_IN_REQUIRED = { ok: false as const, error: "Sign in to do this." };

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The middleware of every owner-only route (app/route-policy.ts `access`): it runs before the
 * route's loader or action, on every request React Router matches to the route, its client
 * navigations' data requests included. Anyone else asking for a page is sent to sign in and
 * back; any other request the route would answer gets 401 and runs none of its code. A request
 * the route has no handler for (a GET of an API, a method its action refuses) is left to React
 * Router and the route, which refuse it whoever asks.
 */
export function ownerOnly(route: GuardedRoute): MiddlewareFunction<Response> {
  const methods = route.actionMethods && new Set(route.actionMethods);
  const handles = (method: string) =>
    WRITES.has(method)
      ? route.action && (methods === undefined || methods.has(method))
      : route.page || route.loader;
  return async ({ request, url, context }) => {
    if (!handles(request.method) || (await isOwner(request, context))) return;
    if (route.page && !WRITES.has(request.method)) {
      throw redirect(`/login?redirectTo=${encodeURIComponent(returnPath(request, url))}`);
    }
    throw data(SIGN_IN_REQUIRED, { status: 401 });
  };
}

/**
 * Where signing in leads back to: the page asked for. A client navigation asks for its page's
 * data (`/admin/posts.data?_routes=…`), which React Router's `url` gives as the page's own path.
 */
function returnPath(request: Request, url: URL): string {
  const asked = new URL(request.url);
  const page = asked.pathname.endsWith(".data") ? url : asked;
  return page.pathname + page.search;
}

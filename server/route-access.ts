import type { ServerBuild } from "react-router";

import { policyOf } from "../app/route-policy";
import { ownerOnly } from "../app/features/owner/index.server";

type Routes = ServerBuild["routes"];

/**
 * The build with app/route-policy.ts's `access` enforced by React Router itself: every
 * owner-only route runs the owner's gate as its first middleware, so the gate guards exactly the
 * requests React Router matches to the route (its client navigations' `.data` requests, and any
 * route nested in it, included), whatever the path looked like to the server before.
 */
export function withRouteAccess(build: ServerBuild): ServerBuild {
  const routes: Routes = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const policy = route && policyOf(route.id);
    if (!route || policy?.access !== "owner") {
      routes[id] = route;
      continue;
    }
    const { module } = route;
    const gate = ownerOnly({
      page: module.default !== undefined,
      loader: module.loader !== undefined,
      action: module.action !== undefined,
      actionMethods: policy.actionMethods,
    });
    routes[id] = {
      ...route,
      module: { ...module, middleware: [gate, ...(module.middleware ?? [])] },
    };
  }
  return { ...build, routes };
}

/** withRouteAccess, once per build (development loads a new one after each edit). */
export function routeAccessFor(): (build: ServerBuild) => ServerBuild {
  const guarded = new WeakMap<ServerBuild, ServerBuild>();
  return (build) => {
    let made = guarded.get(build);
    if (!made) guarded.set(build, (made = withRouteAccess(build)));
    return made;
  };
}

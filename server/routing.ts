import type { MiddlewareHandler } from "hono";
import {
  generatePath,
  matchRoutes,
  type Params,
  type RouteObject,
  type ServerBuild,
} from "react-router";

import { policyOf as policyOfRoute, type RoutePolicy } from "../app/route-policy";

/** A route as the server build lists it (`build.routes`): flat, each naming its parent. */
export type RouteRecord = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
};

/** What a request path is to the router, and what the server does with it. */
export type ResolvedRoute = {
  id: string;
  params: Params;
  policy: RoutePolicy;
  /** A client navigation's data request (`/blog.data`): same route, same policy. */
  data: boolean;
  /**
   * The canonical spelling of the path when the request used another one the router also
   * accepts (`/BLOG/1`, `/blog/1/`, `/blog/%31`); null when it is already canonical or has none
   * (the not-found page).
   */
  canonical: string | null;
};

/** How many request paths keep their resolved route (a few hundred bytes each). */
export const RESOLVED_PATHS_KEPT = 1000;

/** React Router's suffix for the data requests of client navigations; `/_root.data` is `/`. */
const DATA_SUFFIX = ".data";
const ROOT_DATA_PATH = "/_root";

type Branch = RouteObject & { fullPath: string };

/**
 * Resolves request paths with React Router's own matcher over the build's routes, so case,
 * trailing slashes and percent-encoding mean here what they mean to the router. Throws when a
 * route has no entry in app/route-policy.ts (a page must not silently go without caching or
 * privacy), or an owner-only one would not be private.
 */
export function createRouteResolver(
  records: Iterable<RouteRecord>,
  /** The policy table's lookup; tests give tables of their own. */
  policyOf: PolicyOf = policyOfRoute,
) {
  const list = [...records];
  const problems = policyProblems(list, policyOf);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const tree = treeOf(list);
  // React Router's matchRoutes flattens, ranks and compiles the whole route tree on every call,
  // so the paths asked most recently keep their answer (docs/decisions/013-route-policy.md).
  const recent = new Map<string, ResolvedRoute>();

  return function resolve(pathname: string): ResolvedRoute {
    const known = recent.get(pathname);
    if (known) {
      // Maps iterate in insertion order and each use re-inserts: the first is the least recent.
      recent.delete(pathname);
      recent.set(pathname, known);
      return known;
    }
    const resolved = resolveAfresh(pathname);
    if (recent.size >= RESOLVED_PATHS_KEPT) recent.delete(recent.keys().next().value!);
    recent.set(pathname, resolved);
    return resolved;
  };

  function resolveAfresh(pathname: string): ResolvedRoute {
    const data = pathname.endsWith(DATA_SUFFIX);
    let path = data ? pathname.slice(0, -DATA_SUFFIX.length) : pathname;
    if (data && path === ROOT_DATA_PATH) path = "/";
    const leaf = matchRoutes(tree, path)?.at(-1);
    const id = leaf?.route.id ?? "routes/not-found";
    const policy = policyOf(id) ?? { cache: "none" };
    const params = leaf?.params ?? {};
    let canonical: string | null = null;
    const pattern = (leaf?.route as Branch | undefined)?.fullPath;
    if (!data && pattern !== undefined && !pattern.includes("*")) {
      const spelled = generatePath(pattern, params);
      // A path starting "//" would be another host's URL in a Location header.
      if (spelled !== pathname && !spelled.startsWith("//")) canonical = spelled;
    }
    return Object.freeze({ id, params: Object.freeze(params), policy, data, canonical });
  }
}

export type RouteResolver = ReturnType<typeof createRouteResolver>;

type PolicyOf = (id: string) => RoutePolicy | undefined;

/** What in app/route-policy.ts does not fit the build's routes; empty when all is well. */
function policyProblems(records: RouteRecord[], policyOf: PolicyOf): string[] {
  const routes = records.filter((record) => record.id !== "root");
  const missing = routes.filter((record) => !policyOf(record.id)).map((record) => record.id);
  if (missing.length > 0) {
    return [`Routes without a policy in app/route-policy.ts: ${missing.join(", ")}`];
  }
  const parents = new Map(records.map((record) => [record.id, record.parentId]));
  const owners = (id: string | undefined): boolean =>
    id !== undefined && (policyOf(id)?.access === "owner" || owners(parents.get(id)));
  const problems: string[] = [];
  const shared = routes.filter(
    (record) => owners(record.id) && policyOf(record.id)?.cache !== "private",
  );
  if (shared.length > 0) {
    problems.push(`Owner-only routes not private: ${shared.map((r) => r.id).join(", ")}`);
  }
  // The parent's gate runs for a nested route's requests too, but judges them by the parent's
  // own loader and action: the nested route's action is guarded by its own gate alone.
  const open = routes.filter(
    (record) => policyOf(record.id)?.access !== "owner" && owners(record.parentId),
  );
  if (open.length > 0) {
    problems.push(
      `Routes nested in an owner-only route but not owner-only: ${open.map((r) => r.id).join(", ")}`,
    );
  }
  return problems;
}

function treeOf(records: RouteRecord[]): Branch[] {
  const build = (parentId: string | undefined, parentPath: string): Branch[] =>
    records
      .filter((record) => record.parentId === parentId)
      .map((record) => {
        const fullPath = joinPaths(parentPath, record.path);
        const children = build(record.id, fullPath);
        return {
          id: record.id,
          path: record.path,
          caseSensitive: record.caseSensitive,
          fullPath,
          ...(record.index ? { index: true as const } : { children }),
        } as Branch;
      });
  return build(undefined, "");
}

function joinPaths(parent: string, path: string | undefined): string {
  if (path === undefined || path === "") return parent || "/";
  return `${parent.replace(/\/$/, "")}/${path.replace(/^\//, "")}`;
}

/** A non-canonical spelling moves for good: browsers and CDNs may keep the redirect a day. */
const CANONICAL_REDIRECT_CACHE = "public, max-age=86400";

type RoutingVariables = { route?: ResolvedRoute };

export type RoutingOptions = {
  /**
   * Where the canonical URL itself moves for good, if it does (./moved-posts.ts): a spelling
   * that is not canonical is sent there at once, not through the canonical URL's own 301.
   */
  movedTo?: (route: ResolvedRoute) => Promise<string | null>;
};

/**
 * Resolves every request's route once, for the middleware after it (`c.get("route")`), and
 * answers a GET or HEAD spelled in a way the router accepts but that is not canonical with a 301
 * to the canonical URL, so such a spelling is never rendered (nor cached) per request.
 */
export function routing(
  loadRoutes: () => Promise<ServerBuild["routes"]>,
  { movedTo }: RoutingOptions = {},
): MiddlewareHandler<{ Variables: RoutingVariables }> {
  const resolvers = new WeakMap<object, RouteResolver>();
  return async (c, next) => {
    // The same object on every request but in development, where each edit brings new routes.
    const routes = await loadRoutes();
    let resolve = resolvers.get(routes);
    if (!resolve) {
      resolve = createRouteResolver(recordsOf(routes));
      resolvers.set(routes, resolve);
    }
    const url = new URL(c.req.url);
    const route = resolve(url.pathname);
    const method = c.req.method;
    if (route.canonical && (method === "GET" || method === "HEAD")) {
      const moved = movedTo && (await movedTo(route));
      return new Response(null, {
        status: 301,
        headers: {
          Location: moved || route.canonical + url.search,
          "Cache-Control": CANONICAL_REDIRECT_CACHE,
        },
      });
    }
    c.set("route", route);
    return next();
  };
}

/** The build's route manifest as records (its values may be undefined in the type). */
export function recordsOf(routes: ServerBuild["routes"]): RouteRecord[] {
  return Object.values(routes).filter((route) => route !== undefined);
}

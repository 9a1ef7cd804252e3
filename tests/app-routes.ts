import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { ServerBuild } from "react-router";

import routes from "../app/routes";
import { createRouteResolver, type RouteRecord } from "../server/routing";

/**
 * The routes of app/routes.ts as the server build lists them (id: the file without its
 * extension, under the root layout or their parent route), for tests of what the server does with real paths without
 * a build. The test-only routes are there when TEST_ROUTES=1.
 */
export function appRouteRecords(): RouteRecord[] {
  const records = (entries: RouteConfigEntry[], parentId: string): RouteRecord[] =>
    entries.flatMap((entry) => {
      const id = entry.id ?? entry.file.replace(/\.[a-z0-9]+$/i, "");
      const record = {
        id,
        parentId,
        path: entry.path,
        index: entry.index,
        caseSensitive: entry.caseSensitive,
      };
      return [record, ...records(entry.children ?? [], id)];
    });
  return [{ id: "root", path: "" }, ...records(routes, "root")];
}

/** The same as a build's route manifest (`build.routes`). */
export function appRouteManifest(): ServerBuild["routes"] {
  return Object.fromEntries(
    appRouteRecords().map((record) => [record.id, { ...record, module: {} }]),
  ) as unknown as ServerBuild["routes"];
}

export const resolveAppRoute = createRouteResolver(appRouteRecords());

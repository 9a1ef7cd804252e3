import { requireTestRoutes } from "~/lib/test-routes.server";

import type { Route } from "./+types/test.error";

/** Throws an unexpected error, so tests can check the 500 page shows no internals. */
export function loader({ context }: Route.LoaderArgs) {
  requireTestRoutes(context);
  throw new Error("Test failure: SELECT secret FROM internals at /srv/app/server/secret.ts:42");
}

export default function TestError() {
  return null;
}

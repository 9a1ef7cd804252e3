import { data, type RouterContextProvider } from "react-router";

import { appContext } from "~/context";

/** Test-only routes exist in every build but answer 404 unless ENABLE_TEST_ROUTES is set. */
export function requireTestRoutes(context: Readonly<RouterContextProvider>) {
  if (!context.get(appContext).env.enableTestRoutes) {
    throw data(null, { status: 404, statusText: "Not Found" });
  }
}

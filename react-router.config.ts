import type { Config } from "@react-router/dev/config";

import { buildDirectory } from "./server/build-directory.mjs";

export default {
  ssr: true,
  // Every route is known to the browser from the start (docs/decisions/013-route-policy.md):
  // a navigation's target is then matched before it loads, so its pending text is right.
  routeDiscovery: { mode: "initial" },
  // The build with the test-only routes goes to a folder of its own (app/routes.ts).
  buildDirectory,
} satisfies Config;

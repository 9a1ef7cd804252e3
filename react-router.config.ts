import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import type { Config } from "@react-router/dev/config";

import { buildDirectory } from "./server/build-directory.mjs";

export default {
  ssr: true,
  // Every route is known to the browser from the start (docs/decisions/013-route-policy.md):
  // a navigation's target is then matched before it loads, so its pending text is right.
  routeDiscovery: { mode: "initial" },
  // The build with the test-only routes goes to a folder of its own (app/routes.ts).
  buildDirectory,
  // The build also carries an initialised embedded database, so that a new DATA_DIR never
  // runs initdb in the server (docs/decisions/022-pglite-template.md).
  buildEnd: () => {
    execFileSync(
      process.execPath,
      ["--liftoff-only", "scripts/pglite-template.mjs", buildDirectory],
      { stdio: "inherit", cwd: fileURLToPath(new URL(".", import.meta.url)) },
    );
  },
} satisfies Config;

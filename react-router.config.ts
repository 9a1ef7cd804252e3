import type { Config } from "@react-router/dev/config";

import { buildDirectory } from "./server/build-directory.mjs";

export default {
  ssr: true,
  // The build with the test-only routes goes to a folder of its own (app/routes.ts).
  buildDirectory,
} satisfies Config;

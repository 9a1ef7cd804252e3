import path from "node:path";

import { defineConfig } from "vitest/config";

// A layer of `npm test` that needs the production build (scripts/test.mjs runs it after
// `react-router build`), so it is kept out of the main vitest.config.ts.
export default defineConfig({
  root: path.resolve(import.meta.dirname, "../.."),
  // The app's own `~/` imports, as in every other layer.
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/load/**/*.test.ts"],
    globalSetup: ["tests/load/global-setup.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One file at a time: these start servers and load the machine.
    fileParallelism: false,
  },
});

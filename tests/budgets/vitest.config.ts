import path from "node:path";

import { defineConfig } from "vitest/config";

// The budgets layer of `npm test` (scripts/test.mjs runs it after the production build):
// `vitest run --config tests/budgets/vitest.config.ts`. It reads build/client, so it is kept
// out of the main vitest.config.ts, which runs before anything is built.
export default defineConfig({
  root: path.resolve(import.meta.dirname, "../.."),
  // The pages' hydration is read from app/route-policy.ts, which uses the `~/` alias.
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/budgets/**/*.test.ts"],
    environment: "node",
  },
});

import { defineConfig } from "vitest/config";

// Separate from vite.config.ts: the React Router plugin has no place in unit and integration
// tests (TOOLCHAIN pitfall 9).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      "app/**/*.test.ts",
      "server/**/*.test.ts",
      "database/**/*.test.ts",
      "bench/**/*.test.ts",
      "tests/integration/**/*.test.ts",
    ],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite is CPU-heavy; two cores run two files at once at most.
    maxWorkers: 2,
  },
});

import { defineConfig } from "vitest/config";

// Separate from vite.config.ts: the React Router plugin has no place in unit and integration
// tests (it expects a React Router build and app, and would run its own transforms).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      "app/**/*.test.ts",
      "server/**/*.test.ts",
      "database/**/*.test.ts",
      "bench/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      // Nothing in the repository reads or cites what a lone clone lacks.
      "tests/standalone.test.ts",
      // Arrows point down: the import rules of the feature folders.
      "tests/imports.test.ts",
    ],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite is CPU-heavy; two cores run two files at once at most.
    maxWorkers: 2,
  },
});

import { defineConfig } from "vitest/config";

// Where a test lives, each behaviour in one place: a test that needs nothing but the code sits
// beside it (`*.test.ts`); one that needs a real database, in tests/integration/; the production
// build, in tests/built/ (or tests/budgets/); a browser, in tests/e2e/; a loaded server, in
// tests/load/. This config runs the first two.

// Separate from vite.config.ts: the React Router plugin has no place in unit and integration
// tests (it expects a React Router build and app, and would run its own transforms).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Where a test lives follows from what it needs (README, "npm test"): one that needs
    // nothing but the code sits beside it as `*.test.ts`; one that needs a real database is in
    // tests/integration/. Those two kinds run here. One that needs the production build
    // (tests/built/, tests/budgets/), a browser (tests/e2e/) or a loaded server (tests/load/)
    // has a configuration of its own.
    include: [
      "app/**/*.test.ts",
      "server/**/*.test.ts",
      "database/**/*.test.ts",
      "bench/**/*.test.ts",
      "scripts/**/*.test.ts",
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

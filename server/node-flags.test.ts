import { readFileSync } from "node:fs";
import path from "node:path";

import { expect, it } from "vitest";

import { NODE_ENV_WORDS, NODE_FLAGS } from "./node-flags.mjs";

it("npm run serve starts node with the same V8 flags and settings as the benchmarks and tests", () => {
  const pkg = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8"),
  ) as { scripts: Record<string, string> };
  expect(pkg.scripts.serve).toBe(
    `NODE_ENV=production ${NODE_ENV_WORDS.join(" ")} node ${NODE_FLAGS.join(" ")} server.js`,
  );
});

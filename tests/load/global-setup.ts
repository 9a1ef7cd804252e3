import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A private copy of what `node server.js` reads in production (./harness.ts starts it). */
    serverRoot: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Another build in the working tree empties build/ first: give it this long to finish. */
const BUILD_WAIT_MS = 60_000;

/**
 * Copies the production build (and the migrations) once for the whole layer: a rebuild in the
 * working tree while these tests run (a developer's `react-router build`) must not swap files
 * under a server that is being measured. Removed again when the layer ends.
 */
export default async function setup(project: TestProject) {
  for (let waited = 0; !existsSync(path.join(ROOT, "build/server/index.js")); waited += 500) {
    if (waited >= BUILD_WAIT_MS) {
      throw new Error("no production build in build/: run `npx react-router build` first");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-build-"));
  for (const entry of ["package.json", "server.js", "build", "database/migrations"]) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  project.provide("serverRoot", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

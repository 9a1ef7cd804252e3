import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A private copy of the production build for this layer (./site.ts imports it). */
    builtRoot: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Another build in the working tree empties build/ first: give it this long to finish. */
const BUILD_WAIT_MS = 60_000;

/**
 * Copies the production build once for the layer: the bundle loads some chunks lazily (the
 * editor's), so a rebuild in the working tree during the run would otherwise pull files from
 * under it and turn pages into 500s that are no fault of the code. Removed when the layer ends.
 */
export default async function setup(project: TestProject) {
  for (let waited = 0; !existsSync(path.join(ROOT, "build/server/index.js")); waited += 500) {
    if (waited >= BUILD_WAIT_MS) {
      throw new Error("No production build in build/: run `npx react-router build` first.");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-built-"));
  for (const entry of ["package.json", "build"]) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  project.provide("builtRoot", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

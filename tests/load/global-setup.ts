import type { TestProject } from "vitest/node";

import { SERVER_ENTRY_FILES } from "../../server/build-directory.mjs";
import { copyProductionBuild } from "../build-copy";

declare module "vitest" {
  export interface ProvidedContext {
    /** A private copy of what `node server.js` reads in production (./harness.ts starts it). */
    serverRoot: string;
  }
}

export default async function setup(project: TestProject) {
  const copy = await copyProductionBuild([...SERVER_ENTRY_FILES, "database/migrations"]);
  project.provide("serverRoot", copy.dir);
  return copy.remove;
}

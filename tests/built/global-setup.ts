import type { TestProject } from "vitest/node";

import { copyProductionBuild } from "../build-copy";

declare module "vitest" {
  export interface ProvidedContext {
    /** A private copy of the production build for this layer (./site.ts imports it). */
    builtRoot: string;
  }
}

export default async function setup(project: TestProject) {
  const copy = await copyProductionBuild([]);
  project.provide("builtRoot", copy.dir);
  return copy.remove;
}

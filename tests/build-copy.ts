import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
/** Another build in the working tree empties build/ first: give it this long to finish. */
const BUILD_WAIT_MS = 60_000;

/**
 * A private copy of the production build (and `entries` beside it) for one test layer, made
 * once: a rebuild in the working tree while the layer runs must not swap files under a server
 * that is being tested (the bundle loads some chunks lazily, the editor's among them). The
 * copy shares node_modules by a symlink. Returns its folder and how to remove it.
 */
export async function copyProductionBuild(entries: string[]) {
  for (let waited = 0; !existsSync(path.join(ROOT, "build/server/index.js")); waited += 500) {
    if (waited >= BUILD_WAIT_MS) {
      throw new Error("No production build in build/: run `npx react-router build` first.");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-build-"));
  for (const entry of ["package.json", "build", ...entries]) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

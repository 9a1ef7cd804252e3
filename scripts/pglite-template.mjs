// Writes the embedded database's template, initialised and migrated, into a build folder:
// `node --liftoff-only scripts/pglite-template.mjs <build folder>`. The build runs it
// (react-router.config.ts) in a process of its own, on V8's baseline WebAssembly compiler like
// the server, since optimising PGlite's module costs hundreds of megabytes of compiler memory
// (docs/decisions/010-memory.md).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { makeTemplate, templatePath } from "../database/pglite-template.mjs";

const buildDir = process.argv[2];
if (!buildDir || !existsSync(buildDir)) {
  console.error("usage: node scripts/pglite-template.mjs <an existing build folder>");
  process.exit(2);
}
const dir = templatePath(path.resolve(buildDir));
await makeTemplate(dir, fileURLToPath(new URL("../database/migrations", import.meta.url)));
console.log(`Embedded database template: ${path.relative(process.cwd(), dir)}/`);

// What the server loads at start, read from the production build (build/server): the files
// build/server/index.js imports statically, and theirs. The import's and the export's libraries load on
// their first use (docs/decisions/040-imports.md, 044), and sharp on the first image or share card
// (docs/decisions/041-throughput-flags.md), so a site that never needs them never holds them.
import { readFileSync } from "node:fs";
import path from "node:path";

import { expect, test } from "vitest";

const ENTRY = path.resolve("build/server/index.js");
const LAZY_LIBRARIES = ["fast-xml-parser", "gray-matter", "fflate", "marked", "turndown", "sharp"];

/** Every file the entry reaches through static imports (`import … from`, `import "…"`). */
function staticClosure(entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    const source = readFileSync(file, "utf8");
    files.set(file, source);
    for (const match of source.matchAll(
      /(?:^|;|\n)\s*(?:import|export)\b[^;("']*?["'](\.[^"']+)["']/g,
    ))
      queue.push(path.resolve(path.dirname(file), match[1]!));
  }
  return files;
}

test("the server does not load the import's libraries or sharp at start", () => {
  const loaded = staticClosure(ENTRY);
  expect(loaded.size).toBeGreaterThan(3);
  const libraries = new Set<string>();
  for (const source of loaded.values())
    for (const match of source.matchAll(/(?:^|\n)\s*import\b[^;("']*?["']([^"'.][^"']*)["']/g))
      libraries.add(match[1]!);
  // The reading itself is checked: the libraries the server does load at start are found,
  // through the entry and through the chunks it imports.
  expect([...libraries]).toContain("react-router");
  expect([...libraries]).toContain("@electric-sql/pglite");
  for (const name of LAZY_LIBRARIES) expect([...libraries], name).not.toContain(name);
});

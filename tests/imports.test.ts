// Arrows point down: routes and the server → features → shared rules and UI → the database.
// This test reads every import of the source tree (static, dynamic and re-exports) and fails
// with `file: imports target: why` for an arrow that runs back up or reaches into a feature:
//   - `database/` imports nothing from `app/`;
//   - `app/lib/`, `app/ui/` and `app/context.ts` (shared by every feature) import no feature and
//     nothing of the app's own layer (routes, the root, the route policy);
//   - a feature imports no route, nor the root or the route policy (only the site's
//     configuration, `app/site.config.ts`, which is data it reads);
//   - anything outside a feature imports it only through one of its public entries, the files
//     at the feature's root named `index.ts` (safe for the browser), `index.server.ts` (server
//     only) or `index.<part>.ts` (a part loaded on its own pages, such as the editor).
// Tests are left out: they may test a feature's inner files. Why the tree is cut this way is in
// docs/decisions/024-feature-folders.md.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = /\.(?:ts|tsx|mjs|js)$/;
const TEST = /(?:^tests\/|\.test\.tsx?$|\.spec\.ts$)/;

type Layer =
  { kind: "database" | "shared" | "app" | "outside" } | { kind: "feature"; feature: string };

/** Where a repository path stands in the layering. */
export function layerOf(file: string): Layer {
  if (file.startsWith("database/")) return { kind: "database" };
  const feature = /^app\/features\/([^/]+)\//.exec(file);
  if (feature) return { kind: "feature", feature: feature[1]! };
  if (/^app\/(?:lib|ui)\//.test(file) || file === "app/context.ts") return { kind: "shared" };
  if (file.startsWith("app/")) return { kind: "app" };
  return { kind: "outside" };
}

const ENTRY = /^app\/features\/[^/]+\/index(?:\.[\w-]+)?\.tsx?$/;
/** The configuration every feature may read (data, not code above them). */
const READABLE_BY_FEATURES = new Set(["app/site.config.ts"]);

/** Why `from` may not import `to` (both repository paths), or null when it may. */
export function importProblem(from: string, to: string): string | null {
  const a = layerOf(from);
  const b = layerOf(to);
  if (a.kind === "database" && to.startsWith("app/")) return "database/ imports nothing from app/";
  if (a.kind === "shared" && (b.kind === "feature" || b.kind === "app")) {
    return "shared rules and UI import no feature and nothing of the app's own layer";
  }
  if (a.kind === "feature" && b.kind === "app" && !READABLE_BY_FEATURES.has(to)) {
    return "a feature imports no route, nor the root or the route policy";
  }
  if (b.kind === "feature" && !(a.kind === "feature" && a.feature === b.feature)) {
    if (!ENTRY.test(to)) return `outside the ${b.feature} feature, import only its public entries`;
  }
  return null;
}

const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

/** The repository file an import names, or null for a package (or a path that is not a file). */
function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.posix.join("app", specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    const absolute = path.join(ROOT, candidate);
    if (existsSync(absolute) && statSync(absolute).isFile()) return candidate;
  }
  return null;
}

/** Every module a file imports, re-exports or loads on demand. */
function specifiersOf(file: string, source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

function sourceFiles(): string[] {
  const out = execFileSync(
    "git",
    [
      "ls-files",
      "--cached",
      "--others",
      "--exclude-standard",
      "app",
      "server",
      "database",
      "bench",
      "scripts",
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  return out
    .split("\n")
    .filter((f) => SOURCE.test(f) && !TEST.test(f) && existsSync(path.join(ROOT, f)));
}

describe("the import rules", () => {
  const cases: [from: string, to: string, allowed: boolean][] = [
    ["database/schema.ts", "app/features/profile/profile.ts", false],
    ["database/db.server.ts", "database/schema.ts", true],
    ["app/lib/limits.ts", "app/features/posts/rules.ts", false],
    ["app/lib/limits.ts", "app/features/posts/index.ts", false],
    ["app/ui/button.tsx", "app/route-policy.ts", false],
    ["app/lib/format.ts", "app/lib/limits.ts", true],
    ["app/features/site/pending.ts", "app/route-policy.ts", false],
    ["app/features/posts/post-list.tsx", "app/routes/blog.tsx", false],
    ["app/features/site/use-site.ts", "app/site.config.ts", true],
    ["app/features/posts/post-card.tsx", "app/features/site/seo.ts", false],
    ["app/features/posts/post-card.tsx", "app/features/site/index.ts", true],
    ["app/features/posts/post-card.tsx", "app/features/posts/slug.ts", true],
    ["app/routes/blog.tsx", "app/features/posts/posts.server.ts", false],
    ["app/routes/blog.tsx", "app/features/posts/index.server.ts", true],
    ["app/routes/blog.new.tsx", "app/features/posts/index.editor.ts", true],
    ["app/routes/blog.new.tsx", "app/features/posts/editor/index.ts", false],
    ["server/app.ts", "app/features/contact/outbox.server.ts", false],
    ["server/app.ts", "app/features/contact/index.server.ts", true],
    ["server/app.ts", "app/lib/log.server.ts", true],
  ];
  it.each(cases)("%s → %s allowed: %s", (from, to, allowed) => {
    expect(importProblem(from, to) === null).toBe(allowed);
  });

  it("hold across app/, server/ and database/", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const problems: string[] = [];
    let imports = 0;
    for (const file of files) {
      const source = readFileSync(path.join(ROOT, file), "utf8");
      for (const specifier of specifiersOf(file, source)) {
        const target = resolveImport(file, specifier);
        if (target === null) continue;
        imports++;
        const problem = importProblem(file, target);
        if (problem) problems.push(`${file}: imports ${target}: ${problem}`);
      }
    }
    expect(imports).toBeGreaterThan(300);
    expect(problems, `\n${problems.join("\n")}\n`).toEqual([]);
  });
});

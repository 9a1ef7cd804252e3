// The repository stands alone: a fresh clone builds, runs and tests with nothing beside it, and
// every comment or document a reader follows leads to a file in the repository. This test reads
// every file git knows (tracked, or new and not ignored) and fails with `file:line: why` for
//   - a read or a citation of material outside the repository: the team's folder beside the
//     checkout, a machine's absolute work path, the team's own spec files by name, sections of
//     the original specification by number, or an issue by number (the repository's own summary
//     of all of these is docs/product.md);
//   - a relative path in code (two dots, as often as it takes) that resolves above the
//     repository root;
//   - a markdown link, a repository path in backticks in a markdown file, or a source or doc
//     file named anywhere by its path from the root (a document with its `#section`), that
//     leads to no file or heading here.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SELF = path
  .relative(ROOT, import.meta.filename)
  .split(path.sep)
  .join("/");

/** Not ours to word, or not text: the lockfile and the third-party XSS corpus (inputs only). */
const SKIPPED = new Set(["package-lock.json", "tests/fixtures/xss/dompurify-vectors.json"]);
const BINARY = /\.(png|jpe?g|gif|webp|ico|pdf|woff2?|ttf|otf|zip|gz|br|wasm)$/i;

/**
 * What only material outside the repository would explain. Written so that this file's own
 * source does not match them (it is still skipped for these, since its comments describe them).
 */
const OUTSIDE: { pattern: RegExp; why: string }[] = [
  { pattern: /\.\.\/shared\b/, why: "reads or cites the team folder beside the checkout" },
  { pattern: /\/work\//, why: "an absolute path of one machine" },
  { pattern: /\bPRODUCT\.md\b/, why: "cites the team's product spec (use docs/product.md)" },
  { pattern: /\bTOOL[C]HAIN\b/, why: "cites the team's toolchain notes (state the fact itself)" },
  { pattern: /\bSTYLE\.md\b/, why: "cites the team's style guide" },
  { pattern: /original[-]spec/i, why: "cites the original spec file (use docs/product.md)" },
  {
    pattern: /\boriginal\s*\(?\s*§/i,
    why: "cites a section of the original spec (use docs/product.md)",
  },
  { pattern: /\bissues?\s+#?\d+/i, why: "cites an issue by number (say what it asked)" },
  { pattern: /\(issues?:/i, why: "cites an issue (say what it asked)" },
];

/** Top-level folders whose paths in backticks in markdown must exist. */
const REPO_DIRS = "app|server|docs|database|bench|scripts|tests|content|public";
const REPO_PATH = new RegExp(`^(?:${REPO_DIRS})/[\\w.@+/-]*$`);
/** A source or document path from the root, not the tail of a longer path, with its #section. */
const NAMED_FILE = new RegExp(
  `(?<![\\w./@~-])((?:${REPO_DIRS})/[\\w./+-]*\\.(?:ts|tsx|mjs|js|md|sql|json|css))(?:#([\\w-]+))?(?!\\w)`,
  "g",
);

type Problem = string;

function listFiles(): string[] {
  const out = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  return [...new Set(out.split("\0").filter(Boolean))]
    .filter((file) => existsSync(path.join(ROOT, file)))
    .filter((file) => statSync(path.join(ROOT, file)).isFile())
    .sort();
}

const FILES = listFiles();
/** Every file and every folder that holds one, as repository paths. */
const EXISTING = new Set<string>();
for (const file of FILES) {
  EXISTING.add(file);
  for (let dir = path.posix.dirname(file); dir !== "."; dir = path.posix.dirname(dir)) {
    EXISTING.add(dir);
  }
}
const exists = (repoPath: string) => EXISTING.has(repoPath.replace(/\/+$/, ""));

const TEXT = new Map<string, string>();
for (const file of FILES) {
  if (SKIPPED.has(file) || BINARY.test(file)) continue;
  const content = readFileSync(path.join(ROOT, file), "utf8");
  if (content.includes("\0")) continue;
  TEXT.set(file, content);
}
const lines = (file: string) => TEXT.get(file)!.split("\n");

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** Why `repoPath#anchor` does not lead anywhere, or null when it does. */
function brokenTarget(repoPath: string, anchor: string | undefined): string | null {
  const normal = path.posix.normalize(repoPath);
  if (normal.startsWith("../") || normal === "..") return `${repoPath} is outside the repository`;
  if (!exists(normal)) return `${normal} is not in the repository`;
  if (anchor && normal.endsWith(".md") && TEXT.has(normal)) {
    if (!anchorsOf(TEXT.get(normal)!).has(anchor.toLowerCase())) {
      return `${normal} has no heading #${anchor}`;
    }
  }
  return null;
}

/** Lines of a markdown file outside fenced code blocks, with their 1-based numbers. */
function proseLines(file: string): [number, string][] {
  const out: [number, string][] = [];
  let fenced = false;
  lines(file).forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) out.push([i + 1, line]);
  });
  return out;
}

function outsideCitations(): Problem[] {
  const problems: Problem[] = [];
  for (const file of TEXT.keys()) {
    if (file === SELF) continue;
    lines(file).forEach((line, i) => {
      for (const { pattern, why } of OUTSIDE) {
        if (pattern.test(line)) problems.push(`${file}:${i + 1}: ${why}: ${line.trim()}`);
      }
    });
  }
  return problems;
}

const CODE = /\.(ts|tsx|js|mjs|cjs|json|sh)$|^\.ci\//;
/** A run of parent segments (two dots, slash-separated) opening a string or a word. */
const PARENT_RUN = /(?<=^|["'`\s(=,])(\.\.(?:\/\.\.)*)(?=\/|["'`\s),;]|$)/g;

function parentPathsAboveRoot(): Problem[] {
  const problems: Problem[] = [];
  for (const file of TEXT.keys()) {
    if (!CODE.test(file)) continue;
    const dir = path.join(ROOT, path.dirname(file));
    lines(file).forEach((line, i) => {
      for (const match of line.matchAll(PARENT_RUN)) {
        const resolved = path.relative(ROOT, path.resolve(dir, match[1]!));
        if (resolved === ".." || resolved.startsWith(`..${path.sep}`)) {
          problems.push(
            `${file}:${i + 1}: "${match[1]}" from ${path.dirname(file)}/ leaves the repository: ${line.trim()}`,
          );
        }
      }
    });
  }
  return problems;
}

function brokenDocReferences(): Problem[] {
  const problems: Problem[] = [];
  const markdown = [...TEXT.keys()].filter((file) => file.endsWith(".md"));

  for (const file of markdown) {
    const dir = path.posix.dirname(file);
    for (const [n, line] of proseLines(file)) {
      // Relative links and images: [text](target "title"), resolved from the file's folder.
      for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = match[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue;
        const [where, anchor] = target.split("#") as [string, string | undefined];
        const why =
          where === ""
            ? anchor && !anchorsOf(TEXT.get(file)!).has(anchor.toLowerCase())
              ? `no heading #${anchor} in this file`
              : null
            : brokenTarget(path.posix.join(dir, decodeURIComponent(where.split("?")[0]!)), anchor);
        if (why) problems.push(`${file}:${n}: link ${target}: ${why}`);
      }
      // Repository paths in backticks: a file with an extension, or a folder with a slash.
      for (const match of line.matchAll(/`([^`]+)`/g)) {
        const cited = match[1]!.trim();
        if (!REPO_PATH.test(cited)) continue;
        const last = cited.split("/").pop()!;
        if (!cited.endsWith("/") && !/\.[A-Za-z0-9]+$/.test(last)) continue;
        const why = brokenTarget(cited, undefined);
        if (why) problems.push(`${file}:${n}: \`${cited}\`: ${why}`);
      }
    }
  }

  // A repository file named anywhere (code comments included) by its path from the root, with
  // or without a section: `docs/product.md#texts`, `server/routing.ts`.
  for (const file of TEXT.keys()) {
    lines(file).forEach((line, i) => {
      for (const match of line.matchAll(NAMED_FILE)) {
        const why = brokenTarget(match[1]!, match[2]);
        if (why) problems.push(`${file}:${i + 1}: ${match[0]}: ${why}`);
      }
    });
  }
  return problems;
}

/** Fails with one `file:line: why` per line, rather than a diff of two arrays. */
function report(problems: Problem[]) {
  const unique = [...new Set(problems)];
  expect(unique.length, `\n${unique.join("\n")}\n`).toBe(0);
}

describe("the repository stands alone", () => {
  it("lists the repository's files", () => {
    expect(FILES).toContain("package.json");
    expect(FILES).toContain(SELF);
  });

  it("reads and cites nothing outside the repository", () => {
    const problems = outsideCitations();
    report(problems);
  });

  it("has no relative path in code that climbs above the repository root", () => {
    const problems = parentPathsAboveRoot();
    report(problems);
  });

  it("cites only documents, sections and paths that exist in the repository", () => {
    const problems = brokenDocReferences();
    report(problems);
  });
});

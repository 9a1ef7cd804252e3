// Page weight budgets, read from the production build (build/client), not from a browser.
//
// The pages are the build's: every route of its manifest that renders a page. The public ones
// are those anyone may open (app/route-policy.ts: not owner-only), but sign-in; a new public page
// is measured without being listed here. A public page loads no framework: its JavaScript is the
// two inline scripts every such page carries (the theme's and the site script), at most
// PUBLIC_JS_BUDGET. Should one hydrate again, its JavaScript is the framework's below, far over.
//
// For a page that hydrates the JavaScript it loads is: the client entry and its imports, the route
// manifest file, and the root and page route modules with their imports (as the manifest lists
// them, plus any static import found in those files), each file counted once. Its CSS is the
// entry's, the root's and the route's stylesheets. Sizes are gzip at level 6 (zlib's default),
// and 1 KB is 1000 bytes, as Vite's build report counts.
//
// Editor code (TipTap / ProseMirror) must load only on the editor pages, so for the public pages
// the check also follows dynamic imports: a lazily loaded editor is still editor code.
// It is detected by content: the editor chunk is full of "ProseMirror" (class names such as
// ProseMirror-selectednode) and "tiptap", which minification keeps. The editor pages must reach
// such a file, so the check cannot pass by matching nothing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

import { afterAll, describe, expect, test } from "vitest";

import { policyOf, routePolicies } from "../../app/route-policy";
import { SITE_SCRIPT } from "../../app/features/site/site-script";
import { themeInitScript } from "../../app/features/site/theme";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLIENT = path.join(ROOT, "build", "client");
const ASSETS = path.join(CLIENT, "assets");

const KB = 1000;
const GZIP_LEVEL = 6;
// The target is 100 KB (docs/product.md#targets). React 19's DOM client and React Router 8's
// runtime alone weigh 105.4 KB gzip, so that cannot hold on this stack while pages hydrate;
// docs/decisions/008-javascript-budget.md records the measurement and sets this ceiling:
// today's pages plus a small margin.
const JS_BUDGET = 135 * KB;
/** A public page: its inline scripts only. */
const PUBLIC_JS_BUDGET = 10 * KB;
/** The one page anyone may open that hydrates (the owner's pages do too, unbudgeted). */
const SIGN_IN = "routes/login";
const CSS_BUDGET = 20 * KB;
const EDITOR_MARKERS = /prosemirror|tiptap/gi;

const EDITOR_PAGES = [
  { url: "/blog/new", route: "routes/blog.new" },
  { url: "/blog/:id/edit", route: "routes/blog.edit" },
];

interface ManifestRoute {
  id: string;
  hasDefaultExport?: boolean;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  css?: string[];
}
interface Manifest {
  entry: { module: string; imports?: string[]; css?: string[] };
  routes: Record<string, ManifestRoute>;
}
interface Build {
  manifestUrl: string; // "/assets/manifest-<hash>.js"
  manifest: Manifest;
}
interface Asset {
  url: string;
  text: string;
  gzip: number;
}
interface Page {
  url: string;
  route: string;
  js: Asset[]; // loaded with the page
  css: Asset[];
  reachable: Asset[]; // js plus everything it may import on demand
}

const rel = (file: string) => path.relative(ROOT, file) || ".";
const kb = (bytes: number) => (bytes / KB).toFixed(1);

let loaded: Build | undefined;
function build(): Build {
  if (loaded) return loaded;
  const missing = `No client build in ${rel(ASSETS)}: run \`npx react-router build\` first (npm test builds unless SKIP_BUILD=1)`;
  if (!existsSync(ASSETS)) throw new Error(missing);
  const files = readdirSync(ASSETS).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (files.length === 0) throw new Error(`${missing}; there is no manifest-*.js`);
  if (files.length > 1) {
    throw new Error(`Several route manifests in ${rel(ASSETS)} (${files.join(", ")}): rebuild`);
  }
  const file = files[0]!;
  const sandbox: { window: { __reactRouterManifest?: Manifest } } = { window: {} };
  vm.runInNewContext(readFileSync(path.join(ASSETS, file), "utf8"), sandbox, {
    filename: file,
    timeout: 1000,
  });
  const manifest = sandbox.window.__reactRouterManifest;
  if (!manifest?.entry?.module || !manifest.routes) {
    throw new Error(`${file} did not set window.__reactRouterManifest with entry and routes`);
  }
  loaded = { manifestUrl: `/assets/${file}`, manifest };
  return loaded;
}

const assets = new Map<string, Asset>();
function asset(url: string): Asset {
  let found = assets.get(url);
  if (!found) {
    const file = path.join(CLIENT, url);
    if (!url.startsWith("/assets/") || !existsSync(file)) {
      throw new Error(`The build refers to ${url}, but there is no ${rel(file)}`);
    }
    const bytes = readFileSync(file);
    found = {
      url,
      text: bytes.toString("utf8"),
      gzip: gzipSync(bytes, { level: GZIP_LEVEL }).length,
    };
    assets.set(url, found);
  }
  return found;
}

// `import{a as b}from"./x.js"`, `import"./x.js"`, `export{a}from"./x.js"`: loaded with the file.
function staticImports(from: Asset): string[] {
  const found: string[] = [];
  for (const m of from.text.matchAll(
    /\b(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'`](\.{1,2}\/[^"'`]+?\.js)["'`]/g,
  )) {
    found.push(path.posix.join(path.posix.dirname(from.url), m[1]!));
  }
  return found;
}

// Any chunk the file names: its static imports, `import(`./x.js`)` and Vite's preload list
// (`__vite__mapDeps`, "assets/x.js"). Names that are not files in the build are ignored.
function references(from: Asset): string[] {
  const found: string[] = [];
  for (const m of from.text.matchAll(/["'`](\.{1,2}\/|\/?assets\/)([\w.-]+\.js)["'`]/g)) {
    const url = m[1]!.includes("assets/")
      ? `/assets/${m[2]}`
      : path.posix.join(path.posix.dirname(from.url), m[1]! + m[2]!);
    if (existsSync(path.join(CLIENT, url))) found.push(url);
  }
  return found;
}

function closure(start: string[], next: (a: Asset) => string[], skip = new Set<string>()) {
  const seen = new Map<string, Asset>();
  const queue = [...start];
  for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
    if (seen.has(url)) continue;
    const a = asset(url);
    seen.set(url, a);
    if (!skip.has(url)) queue.push(...next(a));
  }
  return [...seen.values()];
}

// "/blog/:slug" for routes/blog.post, from the manifest's paths, so a page is never measured
// against a route that no longer serves it.
function urlOf(chain: ManifestRoute[]) {
  const segments = chain.map((r) => r.path ?? "").filter(Boolean);
  return `/${segments.join("/")}`;
}

/** The build's pages (routes with a component), each with its URL pattern. */
function pagesOfBuild() {
  const { manifest } = build();
  return Object.values(manifest.routes).flatMap((r) => {
    if (r.id === "root" || !r.hasDefaultExport) return [];
    const chain: ManifestRoute[] = [];
    for (let at: ManifestRoute | undefined = r; at; at = manifest.routes[at.parentId ?? ""]) {
      chain.unshift(at);
    }
    return [{ url: urlOf(chain), route: r.id }];
  });
}
const isOwners = (route: string) => policyOf(route)?.access === "owner";
/** Anyone may open them: they are cached, indexed and shared. */
const PAGES = pagesOfBuild().filter((p) => !isOwners(p.route) && p.route !== SIGN_IN);

/** What every page that does not hydrate runs: its inline scripts (app/root.tsx). */
const INLINE_SCRIPTS = [themeInitScript, SITE_SCRIPT];
const inlineGzip = INLINE_SCRIPTS.reduce(
  (sum, text) => sum + gzipSync(text, { level: GZIP_LEVEL }).length,
  0,
);

const pages = new Map<string, Page>();
function page(url: string, route: string): Page {
  const cachedPage = pages.get(route);
  if (cachedPage) return cachedPage;
  const { manifest, manifestUrl } = build();
  const chain: ManifestRoute[] = [];
  for (let id: string | undefined = route; id !== undefined;) {
    const r: ManifestRoute | undefined = manifest.routes[id];
    if (!r) throw new Error(`The route manifest has no route "${id}" (needed for ${url})`);
    chain.unshift(r);
    id = r.parentId;
  }
  if (urlOf(chain) !== url) {
    throw new Error(`Route ${route} serves ${urlOf(chain)} now, not ${url}: update PAGES`);
  }
  const listed = [
    manifestUrl,
    manifest.entry.module,
    ...(manifest.entry.imports ?? []),
    ...chain.flatMap((r) => [r.module, ...(r.imports ?? [])]),
  ];
  const js = closure(listed, staticImports);
  // The manifest names every route's module, but the router loads those only on navigation.
  const reachable = closure(listed, references, new Set([manifestUrl]));
  const css = [...new Set([...(manifest.entry.css ?? []), ...chain.flatMap((r) => r.css ?? [])])];
  const result = { url, route, js, css: css.map(asset), reachable };
  pages.set(route, result);
  return result;
}

const total = (list: Asset[]) => list.reduce((sum, a) => sum + a.gzip, 0);
const breakdown = (list: Asset[]) =>
  [...list]
    .sort((a, b) => b.gzip - a.gzip)
    .map((a) => `  ${kb(a.gzip).padStart(6)} KB  ${a.url}`)
    .join("\n");
function editorFiles(list: Asset[]) {
  return list.flatMap((a) => {
    const markers = [...new Set(a.text.match(EDITOR_MARKERS) ?? [])];
    return markers.length ? [{ url: a.url, markers, gzip: a.gzip }] : [];
  });
}

// Public pages do not hydrate (app/route-policy.ts): they load inline scripts instead, which
// tests/built/content-pages.test.ts also measures in the pages the built server renders. Their route
// modules still load when a page that did hydrate navigates to them, so they must not reach the
// editor either.
const hydrates = (route: string) => policyOf(route)?.hydrate !== false;

describe(`page weight budgets, gzip level ${GZIP_LEVEL}`, () => {
  test("the public pages come from the build and the route policy", () => {
    expect(PAGES.map((p) => p.url)).toEqual(
      expect.arrayContaining(["/", "/blog", "/blog/:slug", "/blog/tags", "/blog/tags/:tag"]),
    );
    for (const { route } of PAGES) expect(policyOf(route), route).toBeDefined();
    // Every route the policy knows is in this build but the test-only ones (TEST_ROUTES=1).
    const built = new Set(Object.keys(build().manifest.routes));
    expect(Object.keys(routePolicies).filter((id) => !built.has(id))).toEqual(
      Object.keys(routePolicies).filter((id) => id.startsWith("routes/test.")),
    );
  });

  test("only the owner's pages and sign-in hydrate", () => {
    const hydrating = pagesOfBuild().filter((p) => hydrates(p.route));
    expect(hydrating.length).toBeGreaterThan(1);
    for (const { url, route } of hydrating) {
      expect(isOwners(route) || route === SIGN_IN, `${url} (${route}) hydrates`).toBe(true);
    }
  });

  for (const { url, route } of PAGES) {
    test(`${url} loads at most ${PUBLIC_JS_BUDGET / KB} KB of JavaScript`, () => {
      const js = hydrates(route) ? total(page(url, route).js) : inlineGzip;
      expect(
        js,
        `${url} loads ${kb(js)} KB of JavaScript (budget ${PUBLIC_JS_BUDGET / KB} KB)${
          hydrates(route) ? `: it hydrates:\n${breakdown(page(url, route).js)}\n` : ""
        }`,
      ).toBeLessThanOrEqual(PUBLIC_JS_BUDGET);
    });
  }

  test(`sign-in loads at most ${JS_BUDGET / KB} KB of JavaScript`, () => {
    const { url, route } = pagesOfBuild().find((p) => p.route === SIGN_IN)!;
    const p = page(url, route);
    const { manifest, manifestUrl } = build();
    const urls = p.js.map((a) => a.url);
    for (const must of [manifestUrl, manifest.entry.module, manifest.routes.root!.module]) {
      expect(urls).toContain(must);
    }
    expect(urls).toContain(manifest.routes[route]!.module);
    expect(
      total(p.js),
      `${url} loads ${kb(total(p.js))} KB of JavaScript (budget ${JS_BUDGET / KB} KB):\n${breakdown(p.js)}\n`,
    ).toBeLessThanOrEqual(JS_BUDGET);
  });

  for (const { url, route } of PAGES) {
    test(`${url} loads at most ${CSS_BUDGET / KB} KB of CSS`, () => {
      const p = page(url, route);
      expect(p.css.length, `${url} loads no stylesheet at all`).toBeGreaterThan(0);
      expect(
        total(p.css),
        `${url} loads ${kb(total(p.css))} KB of CSS (budget ${CSS_BUDGET / KB} KB):\n${breakdown(p.css)}\n`,
      ).toBeLessThanOrEqual(CSS_BUDGET);
    });

    test(`${url} loads no editor code (TipTap, ProseMirror), not even on demand`, () => {
      const found = editorFiles(page(url, route).reachable);
      const list = found.map((f) => `${f.url} (${f.markers.join(", ")})`).join("; ");
      expect(found, `${url} reaches editor code: ${list}`).toEqual([]);
    });
  }

  for (const { url, route } of EDITOR_PAGES) {
    test(`${url} does load the editor code (so the check above can see it)`, () => {
      const found = editorFiles(page(url, route).reachable);
      expect(
        found.length,
        `no file reachable from ${url} matches ${EDITOR_MARKERS}`,
      ).toBeGreaterThan(0);
    });
  }
});

afterAll(() => {
  if (pages.size === 0) return;
  const signIn = pagesOfBuild().filter((p) => p.route === SIGN_IN);
  const rows = [...PAGES, ...signIn, ...EDITOR_PAGES].flatMap(({ url, route }) => {
    const p = pages.get(route);
    if (!p) return [];
    const editor = editorFiles(p.reachable);
    const budgeted = PAGES.some((x) => x.route === route);
    const content = !hydrates(route);
    const jsOk = budgeted
      ? (content ? inlineGzip : total(p.js)) <= PUBLIC_JS_BUDGET
      : total(p.js) <= JS_BUDGET;
    return [
      [
        url,
        route,
        content ? "0 (no hydration)" : String(p.js.length),
        // What a client-side navigation from a hydrated page loads for it.
        content ? `${kb(inlineGzip)} inline (${kb(total(p.js))} on navigation)` : kb(total(p.js)),
        kb(total(p.css)),
        editor.length
          ? `${editor.map((e) => `${path.posix.basename(e.url)} ${kb(e.gzip)} KB`).join(", ")}`
          : "none",
        budgeted || route === SIGN_IN ? (jsOk && total(p.css) <= CSS_BUDGET ? "ok" : "OVER") : "-",
      ],
    ];
  });
  const head = ["page", "route", "JS files", "JS KB", "CSS KB", "editor code", "budget"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i >= 2 && i <= 4 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)));
  console.log(
    [
      `Page weight (gzip level ${GZIP_LEVEL}, 1 KB = 1000 B; budget per public page: JS ${PUBLIC_JS_BUDGET / KB} KB, sign-in ${JS_BUDGET / KB} KB, CSS ${CSS_BUDGET / KB} KB; the rendered pages: tests/built/content-pages.test.ts; editor pages are not budgeted)`,
      ...[head, ...rows].map((r) => `  ${line(r).join("  ").trimEnd()}`),
    ].join("\n"),
  );
});

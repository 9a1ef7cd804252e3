// Content pages as the production bundle renders them: no framework JavaScript at all (no script
// file, no module preload, no hydration data), one small inline script for their controls, and
// their budgets: at most 5 KB of JavaScript and 20 KB of CSS, gzip level 6, 1 KB = 1000 B.
// Pages that hydrate (sign-in, the owner's) are measured from the build manifest in tests/budgets.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freshPglite, type TestDatabase } from "../integration/databases";
import { loadBundle, SITE_URL } from "./site";

const KB = 1000;
const JS_BUDGET = 5 * KB;
const CSS_BUDGET = 20 * KB;
const gzip = (text: string | Buffer) => gzipSync(text, { level: 6 }).length;

type Weighed = { path: string; status: number; scripts: string[]; js: number; css: number };

describe("content pages load no framework (production bundle)", () => {
  let database: TestDatabase;
  let app: { request(path: string): Response | Promise<Response> };
  let root: string;
  const weighed: Weighed[] = [];

  beforeAll(async () => {
    const bundle = await loadBundle();
    root = bundle.root;
    database = await freshPglite();
    await database.db.execute(`
      insert into blog_posts (title, description, content, content_en, created_at)
      select 'Post ' || g, 'About ' || g, '<p>Body ' || g || '</p>', null,
             now() - (10 - g) * interval '1 hour'
      from generate_series(1, 7) g`);
    await database.db.execute(`
      insert into blog_posts (title, description, content, content_en)
      values ('Código', 'A post with everything', '<h2>Uno</h2><p>a</p><h2>Dos</h2><p>b</p><h3>Tres</h3><pre><code class="language-ts">const x = 1;</code></pre>', '<h2>One</h2><p>In English.</p>')`);
    await database.db.execute(
      `insert into post_tags (post_id, tag, position) select id, 'postgres', 0 from blog_posts`,
    );
    const env = bundle.exports.parseEnv({ NODE_ENV: "production", DATA_DIR: "unused", SITE_URL });
    app = bundle.exports.createSiteApp({ env, database, root });
  });
  afterAll(async () => {
    await database?.dispose();
    if (weighed.length === 0) return;
    console.log(
      [
        `Content pages (gzip level 6; budget JS ${JS_BUDGET / KB} KB, CSS ${CSS_BUDGET / KB} KB)`,
        "  page                      status  scripts                     JS KB  CSS KB",
        ...weighed.map(
          (w) =>
            `  ${w.path.padEnd(26)}${String(w.status).padEnd(8)}${w.scripts.join(", ").padEnd(28)}${(w.js / KB).toFixed(2).padStart(5)}  ${(w.css / KB).toFixed(2).padStart(6)}`,
        ),
      ].join("\n"),
    );
  });

  /** A page's scripts as the browser would run them, and its stylesheets' weight. */
  async function weigh(pagePath: string): Promise<Weighed & { html: string }> {
    const response = await app.request(pagePath);
    const html = await response.text();
    const tags = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    // JSON-LD is data, not code: the browser does not run it.
    const code = tags.filter(([, attributes]) => !/type="application\/ld\+json"/.test(attributes!));
    const scripts = code.map(([, attributes, body]) => {
      const src = /\bsrc="([^"]+)"/.exec(attributes!)?.[1];
      if (src) return `file ${src}`;
      if (body!.includes("localStorage.getItem") && body!.length < 400) return "theme";
      if (body!.includes("data-theme-toggle")) return "site script";
      return `inline ${body!.slice(0, 40)}`;
    });
    const css = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)].map(
      ([tag]) => /href="([^"]+)"/.exec(tag)![1]!,
    );
    const cssBytes = css.reduce(
      (sum, href) => sum + gzip(readFileSync(path.join(root, "build/client", href))),
      0,
    );
    const w = {
      path: pagePath,
      status: response.status,
      scripts,
      js: code.reduce((sum, [, , body]) => sum + gzip(body!), 0),
      css: cssBytes,
    };
    weighed.push(w);
    return { ...w, html };
  }

  it.each([
    ["/", 200],
    ["/blog", 200],
    ["/blog?page=2", 200],
    ["/blog?q=body", 200],
    ["/blog/codigo", 200],
    ["/blog/tags", 200],
    ["/blog/tags/postgres", 200],
    ["/blog/tags/postgres?page=2", 200],
    ["/blog/no-such-post", 404],
    ["/no/such/page", 404],
  ])("%s: the theme script and the site script alone, within budget", async (pagePath, status) => {
    const page = await weigh(pagePath);
    expect(page.status).toBe(status);
    expect(page.scripts).toEqual(["theme", "site script"]);
    expect(page.html).not.toMatch(/rel="modulepreload"/);
    expect(page.html).not.toContain("__reactRouterContext");
    expect(page.js).toBeLessThanOrEqual(JS_BUDGET);
    expect(page.css).toBeGreaterThan(0);
    expect(page.css).toBeLessThanOrEqual(CSS_BUDGET);
  });

  it("sign-in still hydrates (the contrast the test above relies on)", async () => {
    const page = await weigh("/login");
    expect(page.scripts).toContain("theme");
    expect(page.scripts).not.toContain("site script");
    expect(page.html).toContain("__reactRouterContext");
    // Its framework is fetched after the first paint (app/features/site/hydration-scripts.tsx):
    // the document names the chunks only inside the inline module that loads them.
    expect(page.html).not.toMatch(/rel="modulepreload"/);
    expect(page.html).toMatch(/<script[^>]*type="module"[^>]*>await new Promise\(\(painted\)/);
    expect(page.html).toContain("window.__reactRouterRouteModules = modules;");
  });

  it("the home page carries its contact form's toasts and live region for the script", async () => {
    const { html } = await weigh("/");
    expect(html).toContain('data-contact-form=""');
    expect(html).toMatch(/<div data-toast-region="" aria-live="polite"><\/div>/);
    expect(html).toMatch(/<template data-toast-template="success"><div role="status"/);
    expect(html).toMatch(/<template data-toast-template="error"><div role="alert"/);
    expect(html).toContain('data-send-label="sending" hidden=""');
  });

  it("a post carries both versions, its copy buttons and its live region for the script", async () => {
    const { html } = await weigh("/blog/codigo");
    expect(html).toContain('data-version-switch=""');
    expect(html).toMatch(/<template data-version-other="">.*In English\./s);
    expect(html).toContain("data-copy-code");
    expect(html).toContain('data-announce=""');
    expect(html).toContain('data-back-to-top=""');
    expect(html).toContain('data-menu-toggle=""');
  });
});

import { defineConfig } from "@playwright/test";

import { NODE_ENV_WORDS, NODE_FLAGS } from "./server/node-flags.mjs";

/**
 * End-to-end tests: Debian's Chromium against the built production server (npm run build).
 * Three servers, each on its own embedded database, so tests that replace every post (blog,
 * XSS) never disturb the others.
 */
/** The first server's port; the others follow it. Two checkouts testing at once set it apart. */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3210);
const servers = {
  site: { port: PORT_BASE + 0, seed: "true" },
  blog: { port: PORT_BASE + 1, seed: "false" },
  xss: { port: PORT_BASE + 2, seed: "false" },
  editor: { port: PORT_BASE + 3, seed: "false" },
  contact: { port: PORT_BASE + 4, seed: "false" },
  profile: { port: PORT_BASE + 5, seed: "true" },
  writing: { port: PORT_BASE + 6, seed: "false" },
  publishing: { port: PORT_BASE + 7, seed: "false" },
  content: { port: PORT_BASE + 8, seed: "false" },
  trash: { port: PORT_BASE + 9, seed: "false" },
  history: { port: PORT_BASE + 10, seed: "false" },
} as const;

/** Every server's owner password (tests/e2e/owner.ts signs in with it). */
export const E2E_OWNER_PASSWORD = "e2e-owner-password";

const base = (port: number) => `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  workers: 2,
  retries: 0,
  // A test's whole budget. On these shared two-core machines the suite's heavier tests (axe
  // over an owner's page, about 5 s a run alone and twice that beside the other worker; uploads
  // waiting for their images) ran past 30 s in full runs; each wait inside keeps its own limit.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
      // Without the background-networking flags Chromium keeps dialling out.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    {
      name: "site",
      testIgnore: [
        /blog\.spec/,
        /xss\.spec/,
        /editor\.spec/,
        /contact\.spec/,
        /profile\.spec/,
        /writing\.spec/,
        /publishing\.spec/,
        /content-pages\.spec/,
        /trash\.spec/,
        /history\.spec/,
      ],
      use: { baseURL: base(servers.site.port) },
    },
    { name: "blog", testMatch: /blog\.spec/, use: { baseURL: base(servers.blog.port) } },
    { name: "xss", testMatch: /xss\.spec/, use: { baseURL: base(servers.xss.port) } },
    { name: "editor", testMatch: /editor\.spec/, use: { baseURL: base(servers.editor.port) } },
    { name: "contact", testMatch: /contact\.spec/, use: { baseURL: base(servers.contact.port) } },
    { name: "profile", testMatch: /profile\.spec/, use: { baseURL: base(servers.profile.port) } },
    { name: "writing", testMatch: /writing\.spec/, use: { baseURL: base(servers.writing.port) } },
    {
      name: "content",
      testMatch: /content-pages\.spec/,
      use: { baseURL: base(servers.content.port) },
    },
    { name: "trash", testMatch: /trash\.spec/, use: { baseURL: base(servers.trash.port) } },
    { name: "history", testMatch: /history\.spec/, use: { baseURL: base(servers.history.port) } },
    {
      name: "publishing",
      testMatch: /publishing\.spec/,
      use: { baseURL: base(servers.publishing.port) },
    },
  ],
  webServer: Object.entries(servers).map(([name, { port, seed }]) => {
    const dataDir = `.test-output/e2e-${name}-data`;
    return {
      command: `rm -rf ${dataDir} && ${NODE_ENV_WORDS.join(" ")} node ${NODE_FLAGS.join(" ")} server.js`,
      url: `${base(port)}/healthz`,
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
      env: {
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dataDir,
        SITE_URL: base(port),
        SEED_DEMO: seed,
        // The build with the test-only routes (app/routes.ts), which npm test makes.
        TEST_ROUTES: "1",
        OWNER_PASSWORD: E2E_OWNER_PASSWORD,
        // The tests read how the page cache answered; production does not say (README).
        PAGE_CACHE_HEADER: name === "writing" ? "false" : "true",
      },
    };
  }),
});

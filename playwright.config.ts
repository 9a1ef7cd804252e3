import { defineConfig } from "@playwright/test";

/** End-to-end tests: Debian's Chromium against the built production server (npm run build). */
export const E2E_PORT = 3210;
const baseURL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = ".test-output/e2e-data";

export default defineConfig({
  testDir: "tests/e2e",
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
      // Without the background-networking flags Chromium keeps dialling out (TOOLCHAIN pitfall 10).
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
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && node server.js`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      SITE_URL: baseURL,
      SEED_DEMO: "true",
      ENABLE_TEST_ROUTES: "true",
    },
  },
});

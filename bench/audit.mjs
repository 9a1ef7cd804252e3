// npm run audit: Lighthouse (mobile preset, simulated throttling) on the built production site.
// Starts the server on a free port with a scratch embedded database (seeded with the demo
// content), audits the home page, the blog list, one post and the sign-in page, and prints a
// table of the four category scores, then, for every score under 100, the audits that cost it.
// A benchmark, not a test: it exits non-zero only when the server or Lighthouse cannot run.
//   --json DIR   also save each full Lighthouse report as DIR/<page>.json
//   --runs N     audit every page N times (default 1); the table shows each category's median,
//                and an audit is listed with how many runs it failed in. On this shared 2-core
//                machine performance scores move between runs: use --runs 3 before chasing one.
//   --throttling simulate|devtools   simulate (the mobile preset's default) loads the page at
//                full speed and estimates a slow 4G phone from that trace; devtools really slows
//                the network and CPU down: slower to run, but what a phone would see, for
//                telling a real delay from an artefact of the estimate.
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

import lighthouse from "lighthouse";

import { SERVER_ENTRY_FILES } from "../server/build-directory.mjs";
import { NODE_ENV_SETTINGS, NODE_FLAGS } from "../server/node-flags.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    json: { type: "string" },
    runs: { type: "string", default: "1" },
    throttling: { type: "string", default: "simulate" },
  },
});
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`--runs must be a positive whole number, not ${values.runs}`);
  process.exit(2);
}
if (!["simulate", "devtools"].includes(values.throttling)) {
  console.error(`--throttling must be simulate or devtools, not ${values.throttling}`);
  process.exit(2);
}

const OWNER_PASSWORD = "audit-owner-password";
const HEALTH_TIMEOUT_MS = 90_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;
const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";
// Without the background-networking flags Chromium keeps dialling out.
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const CATEGORIES = [
  ["performance", "performance"],
  ["accessibility", "accessibility"],
  ["best-practices", "best practices"],
  ["seo", "SEO"],
];
/** Lighthouse runs per page and round before the audit gives up on it. */
const ATTEMPTS = 2;
/** Detail rows shown under a failing audit: enough to find the element or file. */
const DETAIL_ROWS = 5;

// chrome-launcher is Lighthouse's own dependency: take the copy Lighthouse resolves.
const fromLighthouse = createRequire(path.join(root, "node_modules/lighthouse/package.json"));
const chromeLauncher = await import(pathToFileURL(fromLighthouse.resolve("chrome-launcher")).href);

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A copy of the build to serve, so another build in this working tree (a test run, a colleague)
 * cannot swap the files under the audit: that shows up as unstyled pages and 404s in the report.
 */
function snapshotSite(into) {
  if (!existsSync(path.join(root, "build/server/index.js"))) {
    throw new Error("no production build in build/: run `npm run audit`, which builds first");
  }
  for (const entry of [...SERVER_ENTRY_FILES, "package.json", "build", "database/migrations"]) {
    cpSync(path.join(root, entry), path.join(into, entry), { recursive: true });
  }
  symlinkSync(path.join(root, "node_modules"), path.join(into, "node_modules"), "dir");
  return into;
}

function startServer(siteDir, port, dataDir) {
  // SITE_URL is left to its default, http://localhost:$PORT, the address audited below; nor
  // may a DATABASE_URL from the caller's shell point the audit at a real database.
  const { SITE_URL: _siteUrl, DATABASE_URL: _databaseUrl, ...inherited } = process.env;
  const child = spawn(path.join(root, "node_modules/.bin/node"), [...NODE_FLAGS, "server.js"], {
    cwd: siteDir,
    env: {
      ...inherited,
      ...NODE_ENV_SETTINGS,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: "true",
      OWNER_PASSWORD,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { child, exited, log: () => log };
}

async function waitForHealth(base, server) {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the server did not become healthy:\n${server.log()}`);
}

async function stopServer(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill("SIGTERM");
  const stopped = await Promise.race([server.exited.then(() => true), sleep(SHUTDOWN_TIMEOUT_MS)]);
  if (!stopped) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
}

/** The first post linked from the blog list, as a path. */
async function findPostPath(base) {
  const response = await fetch(`${base}/blog`);
  const html = await response.text();
  const match = html.match(/href="(\/blog\/(?!tags"|new")[a-z0-9-]+)"/);
  if (!match) {
    throw new Error(
      `no post is linked from /blog (status ${response.status}): is the demo seeded?`,
    );
  }
  return match[1];
}

const score = (category) =>
  category?.score === null || category?.score === undefined
    ? null
    : Math.round(category.score * 100);

function median(numbers) {
  const known = numbers.filter((n) => n !== null).sort((a, b) => a - b);
  if (known.length === 0) return null;
  const middle = Math.floor(known.length / 2);
  return known.length % 2 === 1
    ? known[middle]
    : Math.round((known[middle - 1] + known[middle]) / 2);
}

/** Audits of a category that are neither passed, nor informational, nor not applicable. */
function failingAudits(lhr, categoryId) {
  const failing = [];
  for (const ref of lhr.categories[categoryId].auditRefs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 1) continue;
    if (["informative", "notApplicable", "manual"].includes(audit.scoreDisplayMode)) continue;
    // Performance's score is its weighted metrics only; its insights and diagnostics weigh
    // nothing but say what to change, so they are listed too, marked unweighted.
    failing.push({ audit, weighted: ref.weight > 0 });
  }
  return failing;
}

/** A few short lines naming what an audit found: elements, files, or messages. */
function detailLines(audit) {
  const details = audit.details;
  // Lists (insights) hold tables and prose; only their tables name something to fix.
  const tables =
    details?.type === "list"
      ? details.items.filter((item) => Array.isArray(item?.items))
      : details?.items
        ? [details]
        : [];
  const items = tables.flatMap((table) => table.items);
  const describe = (item) => {
    const node = item.node ?? item.element;
    if (node?.snippet) {
      return `${node.snippet}${node.explanation ? ` — ${node.explanation}` : ""}`;
    }
    const url = typeof item.url === "string" ? item.url : item.source?.url;
    if (url) {
      const extra = [
        typeof item.description === "string" ? item.description : null,
        item.wastedBytes ? `${Math.round(item.wastedBytes / 1024)} KiB to save` : null,
        item.wastedMs ? `${Math.round(item.wastedMs)} ms` : null,
      ].filter(Boolean);
      return `${url}${extra.length ? ` (${extra.join(", ")})` : ""}`;
    }
    if (typeof item.description === "string") return item.description;
    if (typeof item.label === "string" && typeof item.duration === "number") {
      return `${item.label}: ${Math.round(item.duration)} ms`;
    }
    return null;
  };
  const lines = items
    .map(describe)
    .filter(Boolean)
    .map((line) => line.replace(/\s+/g, " ").slice(0, 220));
  if (lines.length > DETAIL_ROWS) {
    return [...lines.slice(0, DETAIL_ROWS), `… ${lines.length} in all`];
  }
  return lines;
}

/**
 * Why a simulated first paint is late. The simulation (Lantern) starts from a load at full
 * speed and counts every high-priority script that had finished downloading before that load
 * first painted as render-blocking, module scripts included, although they are deferred. On
 * localhost the hydration scripts usually finish first, so their bytes land on FCP and LCP.
 */
function firstPaintNote(lhr) {
  if (lhr.configSettings.throttlingMethod !== "simulate") return null;
  const metrics = lhr.audits.metrics?.details?.items?.[0];
  const requests = lhr.audits["network-requests"]?.details?.items;
  if (!metrics || !Array.isArray(requests)) return null;
  const paint = metrics.observedFirstContentfulPaint;
  const loadedBefore = (type) =>
    requests
      .filter((r) => r.resourceType === type && r.networkEndTime <= paint)
      .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;
  return (
    `unthrottled first paint at ${Math.round(paint)} ms, when ${kb(loadedBefore("Script"))} ` +
    `of script and ${kb(loadedBefore("Stylesheet"))} of CSS had loaded (the simulation ` +
    `counts both as render-blocking): simulated FCP ${Math.round(metrics.firstContentfulPaint)} ms`
  );
}

/** Same-site requests that failed: a sign the page was audited broken, not slow. */
function failedRequests(lhr) {
  const origin = new URL(lhr.finalDisplayedUrl).origin;
  const requests = lhr.audits["network-requests"]?.details?.items ?? [];
  return requests.filter((r) => r.url.startsWith(origin) && r.statusCode >= 400);
}

async function auditPage(url, port) {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: CATEGORIES.map(([id]) => id),
    throttlingMethod: values.throttling,
  });
  if (!result?.lhr) throw new Error(`Lighthouse returned no report for ${url}`);
  if (result.lhr.runtimeError) {
    const { code, message } = result.lhr.runtimeError;
    throw new Error(`Lighthouse could not audit ${url}: ${code} ${message}`);
  }
  return result.lhr;
}

function printReport(pages) {
  const header = ["page", ...CATEGORIES.map(([, label]) => label)];
  console.log(`\n| ${header.join(" | ")} |`);
  console.log(`| ${header.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`);
  for (const page of pages) {
    page.scores = CATEGORIES.map(([id]) =>
      median(page.lhrs.map((lhr) => score(lhr.categories[id]))),
    );
    console.log(`| ${page.path} | ${page.scores.map((c) => c ?? "—").join(" | ")} |`);
  }
  const settings = pages[0]?.lhrs[0]?.configSettings;
  if (settings) {
    const runs = RUNS > 1 ? `, median of ${RUNS} runs` : "";
    console.log(
      `\nLighthouse ${pages[0].lhrs[0].lighthouseVersion}, ${settings.formFactor}, ` +
        `${settings.throttlingMethod} throttling${runs}.`,
    );
  }

  for (const page of pages) {
    CATEGORIES.forEach(([id, label], index) => {
      if (page.scores[index] === 100) return;
      const byId = new Map();
      for (const lhr of page.lhrs) {
        for (const { audit, weighted } of failingAudits(lhr, id)) {
          const seen = byId.get(audit.id) ?? { last: audit, weighted, values: [], runs: 0 };
          seen.runs += 1;
          seen.last = audit;
          if (audit.displayValue) seen.values.push(audit.displayValue);
          byId.set(audit.id, seen);
        }
      }
      console.log(`\n### ${page.path} — ${label} ${page.scores[index] ?? "—"}\n`);
      if (id === "performance") {
        page.lhrs.forEach((lhr, run) => {
          const note = firstPaintNote(lhr);
          if (note) console.log(`- ${page.lhrs.length > 1 ? `run ${run + 1}: ` : ""}${note}`);
        });
      }
      const sorted = [...byId.values()].sort((a, b) => Number(b.weighted) - Number(a.weighted));
      for (const { last, weighted, values: shown, runs } of sorted) {
        const facts = [weighted ? null : "unweighted"];
        if (page.lhrs.length > 1) facts.push(`failed in ${runs} of ${page.lhrs.length} runs`);
        const value = shown.length > 0 ? ` — ${[...new Set(shown)].join("; ")}` : "";
        const note = facts.filter(Boolean).join(", ");
        console.log(`- \`${last.id}\`: ${last.title}${value}${note ? ` (${note})` : ""}`);
        for (const line of detailLines(last)) console.log(`  - ${line}`);
      }
    });
  }
  for (const page of pages) {
    const warnings = new Set(page.lhrs.flatMap((lhr) => lhr.runWarnings ?? []));
    for (const lhr of page.lhrs) {
      for (const r of failedRequests(lhr)) warnings.add(`${r.url} answered ${r.statusCode}`);
    }
    for (const warning of warnings) console.log(`\nWarning (${page.path}): ${warning}`);
  }
}

const tempDir = mkdtempSync(path.join(os.tmpdir(), "audit-"));
let server;
let chrome;
let exitCode = 0;
const cleanUp = async () => {
  try {
    await chrome?.kill();
  } catch {
    // already gone
  }
  if (server) await stopServer(server);
  rmSync(tempDir, { recursive: true, force: true });
};
// Last resort when something throws past the cleanup above: nothing may outlive the audit.
process.on("exit", () => {
  if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  if (chrome?.pid) {
    try {
      process.kill(chrome.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(tempDir, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    cleanUp().finally(() => process.exit(130));
  });
}

try {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(`no Chromium at ${CHROME_PATH}: install it, or set CHROME_PATH`);
  }
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const siteDir = snapshotSite(path.join(tempDir, "site"));
  server = startServer(siteDir, port, path.join(tempDir, "data"));
  await waitForHealth(`http://127.0.0.1:${port}`, server);
  const postPath = await findPostPath(`http://127.0.0.1:${port}`);

  mkdirSync(path.join(tempDir, "chrome"));
  chrome = await chromeLauncher
    .launch({
      chromePath: CHROME_PATH,
      chromeFlags: CHROME_FLAGS,
      // Inside the scratch folder, so it goes with it even when Chrome fails to start.
      userDataDir: path.join(tempDir, "chrome"),
    })
    .catch((error) => {
      throw new Error(`Chromium (${CHROME_PATH}) did not start: ${error.message}`);
    });
  const pages = ["/", "/blog", postPath, "/login"].map((p) => ({ path: p, lhrs: [] }));
  const failures = [];
  for (let run = 1; run <= RUNS; run++) {
    for (const page of pages) {
      const started = performance.now();
      let lhr;
      // A busy machine now and then makes one load fail (an interstitial, a timeout): try twice.
      for (let attempt = 1; attempt <= ATTEMPTS && !lhr; attempt++) {
        try {
          lhr = await auditPage(`${base}${page.path}`, chrome.port);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          console.error(`run ${run}/${RUNS} ${page.path}, attempt ${attempt}: ${message}`);
          if (attempt === ATTEMPTS) failures.push(`${page.path} (run ${run}): ${message}`);
        }
      }
      if (!lhr) continue;
      page.lhrs.push(lhr);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`run ${run}/${RUNS} ${page.path}: ${seconds} s`);
      if (values.json) {
        mkdirSync(values.json, { recursive: true });
        const name = page.path === "/" ? "home" : page.path.slice(1).replace(/\//g, "-");
        const suffix = RUNS > 1 ? `-${run}` : "";
        writeFileSync(
          path.join(values.json, `${name}${suffix}.json`),
          JSON.stringify(lhr, null, 2),
        );
      }
    }
  }
  printReport(pages.filter((page) => page.lhrs.length > 0));
  if (failures.length > 0) {
    console.error(`\nLighthouse failed on:\n${failures.map((f) => `- ${f}`).join("\n")}`);
    console.error(`\nServer log:\n${server.log()}`);
    exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await cleanUp();
}
process.exit(exitCode);

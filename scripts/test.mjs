// `npm test`: every test layer this machine can run, and a plain count at the end.
//   unit + integration (Vitest; PostgreSQL too when TEST_DATABASE_URL is set)
//   budgets (page weight and editor code, read from the production build; tests/budgets)
//   built server (the production bundle in process: fuzzing and bad input; tests/built)
//   end-to-end (Playwright in Chromium against the built production server)
//   load and faults (the production server under load, and its database cut; tests/load)
// It says what it skipped and why; with CI=true nothing may be skipped.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

const CI = ["true", "1"].includes(process.env.CI ?? "");
const OUT = ".test-output";
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
mkdirSync(OUT, { recursive: true });

const counts = new Map(); // layer -> { passed, failed, skipped }
const skips = [];
const problems = [];
// Every test that did not pass, named in the summary: a CI log is often read from its end.
const notPassed = []; // "layer: failed|skipped file > title: first line of the error"

/** Counts one test; `where` names it (file > title) and `error` is its failure, if any. */
function tally(layer, status, where = "", error) {
  const row = counts.get(layer) ?? { passed: 0, failed: 0, skipped: 0 };
  if (status === "passed") row.passed++;
  else if (status === "failed") row.failed++;
  else row.skipped++;
  counts.set(layer, row);
  if (status !== "passed") {
    const [first] = stripVTControlCharacters(String(error ?? ""))
      .trim()
      .split("\n");
    notPassed.push(`${layer}: ${status} ${where}${first ? `: ${first.slice(0, 200)}` : ""}`);
  }
}

/** file > describe > title, for a Vitest JSON assertion result. */
const vitestName = (file, test) =>
  [path.relative(process.cwd(), file.name), ...test.ancestorTitles, test.title].join(" > ");

function run(command, args, env = {}) {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  return spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } }).status;
}

// --- unit and integration --------------------------------------------------------------------
if (!process.env.TEST_DATABASE_URL) {
  const reason = "PostgreSQL integration tests: TEST_DATABASE_URL is not set";
  if (CI) problems.push(`${reason} (required with CI=true)`);
  else skips.push(reason);
}

const vitestJson = path.join(OUT, "vitest.json");
rmSync(vitestJson, { force: true });
const vitestStatus = run("vitest", [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
]);
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, "utf8"));
  for (const file of report.testResults) {
    const integration = file.name.includes(`${path.sep}tests${path.sep}integration${path.sep}`);
    for (const test of file.assertionResults) {
      const postgres = test.ancestorTitles.some((t) => /postgres/i.test(t));
      const layer = !integration
        ? "unit"
        : postgres
          ? "integration (PostgreSQL)"
          : "integration (PGlite)";
      tally(layer, test.status, vitestName(file, test), test.failureMessages?.[0]);
    }
    if (file.status === "failed" && file.assertionResults.length === 0) {
      problems.push(`Vitest could not run ${path.relative(process.cwd(), file.name)}`);
    }
  }
} else {
  problems.push(`Vitest produced no report (exit status ${vitestStatus})`);
}

// --- production build, then the layers that read it ----------------------------------------
// The production build serves the budgets, the built-server tests and the load tests;
// SKIP_BUILD=1 uses the one in build/ (with none there, those tests fail and say so). The
// end-to-end tests run a second build with the test-only routes, in a folder of its own
// (app/routes.ts, server/build-directory.mjs), made every time: it must match the code.
const buildStatus = process.env.SKIP_BUILD === "1" ? 0 : run("react-router", ["build"]);
const testBuildStatus = run("react-router", ["build"], { TEST_ROUTES: "1" });

/** Runs one Vitest config as a layer of its own; `layerOf(file, test)` names each test's layer. */
function vitestLayer(name, config, layerOf = () => name) {
  if (buildStatus !== 0) {
    problems.push(`the production build failed, so the ${name} tests could not run`);
    return;
  }
  const json = path.join(OUT, `${path.basename(path.dirname(config))}.json`);
  rmSync(json, { force: true });
  const status = run("vitest", [
    "run",
    `--config=${config}`,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${json}`,
  ]);
  if (!existsSync(json)) {
    problems.push(`the ${name} tests produced no report (exit status ${status})`);
    return;
  }
  const report = JSON.parse(readFileSync(json, "utf8"));
  let ran = 0;
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      tally(layerOf(file, test), test.status, vitestName(file, test), test.failureMessages?.[0]);
      ran++;
    }
    if (file.status === "failed" && file.assertionResults.length === 0) {
      problems.push(`Vitest could not run ${path.relative(process.cwd(), file.name)}`);
    }
  }
  if (ran === 0) problems.push(`the ${name} layer found no tests`);
}

const byDatabase = (name) => (_file, test) =>
  test.ancestorTitles.some((t) => /postgres/i.test(t))
    ? `${name} (PostgreSQL)`
    : `${name} (PGlite)`;

vitestLayer("budgets", "tests/budgets/vitest.config.ts");
// The production server bundle, in process, against both databases (fuzzing, bad input).
vitestLayer("built server", "tests/built/vitest.config.ts", byDatabase("built server"));

// --- end-to-end ------------------------------------------------------------------------------
if (!existsSync(CHROME)) {
  const reason = `end-to-end tests: no Chromium at ${CHROME} (apt-get install -y chromium, or set CHROME_PATH)`;
  if (CI) problems.push(`${reason} (required with CI=true)`);
  else skips.push(reason);
} else {
  if (testBuildStatus !== 0) {
    problems.push("the build with test routes failed, so the end-to-end tests could not run");
  } else {
    const e2eJson = path.join(OUT, "e2e.json");
    rmSync(e2eJson, { force: true });
    const status = run("playwright", ["test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson,
    });
    if (existsSync(e2eJson)) {
      const report = JSON.parse(readFileSync(e2eJson, "utf8"));
      const visit = (suite, titles) => {
        for (const spec of suite.specs ?? []) {
          for (const test of spec.tests) {
            const outcome = test.status; // expected | unexpected | flaky | skipped
            const error = test.results?.find((result) => result.error)?.error?.message;
            tally(
              "end-to-end (Chromium)",
              outcome === "expected" ? "passed" : outcome === "skipped" ? "skipped" : "failed",
              [...titles, spec.title].join(" > "),
              error,
            );
          }
        }
        for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
      };
      for (const suite of report.suites) visit(suite, [suite.title]);
      for (const error of report.errors ?? []) problems.push(`Playwright: ${error.message}`);
    } else {
      problems.push(`Playwright produced no report (exit status ${status})`);
    }
  }
}

// --- load and faults: last, alone, since they take the machine's every core ----------------
vitestLayer("load and faults", "tests/load/vitest.config.ts");

// --- summary ---------------------------------------------------------------------------------
let passed = 0;
let failed = 0;
let skipped = 0;
console.log("\nTest layers:");
for (const [layer, row] of counts) {
  passed += row.passed;
  failed += row.failed;
  skipped += row.skipped;
  console.log(
    `  ${layer.padEnd(26)} ${row.passed} passed, ${row.failed} failed${row.skipped ? `, ${row.skipped} skipped` : ""}`,
  );
}
for (const line of notPassed) console.log(`  ${line}`);
for (const reason of skips) console.log(`Skipped: ${reason}`);
if (CI && skipped > 0) problems.push(`${skipped} tests were skipped, and CI=true allows none`);
for (const problem of problems) console.log(`Problem: ${problem}`);
// A problem that kept tests from running counts as a failure.
failed += problems.length;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import autocannon from "autocannon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { errorLines, findPostSlug, startServer, tail, type ServerProcess } from "./harness";

/**
 * Load (docs/product.md#robustness): the public pages under 200 concurrent connections for
 * 30 s, on the embedded database with the page cache on, as shipped. Every request must be
 * answered 2xx in time.
 */
const PORT = 3241;
const CONNECTIONS = 200;
const DURATION_S = 30;
/** What a browser sends: the server compresses every answer, cached or not. */
const HEADERS = { accept: "text/html,*/*", "accept-encoding": "gzip, deflate, br" };

describe("public pages under load (PGlite, page cache on)", () => {
  let dataDir = "";
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-load-"));
    server = await startServer(PORT, { DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`answers /, /blog and a post to ${CONNECTIONS} connections for ${DURATION_S} s with no error`, async () => {
    const postSlug = await findPostSlug(server.base);
    const paths = ["/", "/blog", `/blog/${postSlug}`];
    for (const p of paths) expect((await fetch(`${server.base}${p}`)).status, p).toBe(200);

    const result = await autocannon({
      url: server.base,
      connections: CONNECTIONS,
      duration: DURATION_S,
      timeout: 10,
      headers: HEADERS,
      // Every connection cycles through the three pages.
      requests: paths.map((p) => ({ method: "GET", path: p })),
    });

    const codes = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}×${count}`)
      .join(", ");
    const total = result["2xx"] + result.non2xx;
    console.log(
      `load: ${paths.join(", ")} · ${CONNECTIONS} connections · ${result.duration.toFixed(1)} s\n` +
        `  ${total} answers (${codes}), ${result.requests.average.toFixed(0)} req/s on average\n` +
        `  latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms\n` +
        `  errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}, resets ${result.resets}`,
    );

    const summary = `${result.errors} errors (${result.timeouts} timeouts), ${result.non2xx} non-2xx; status codes: ${codes}\nserver output:\n${tail(server)}`;
    expect(result["2xx"], summary).toBeGreaterThan(0);
    expect(result.errors, summary).toBe(0);
    expect(result.timeouts, summary).toBe(0);
    expect(result.non2xx, summary).toBe(0);
    expect(errorLines(server), "the server logged errors under load").toEqual([]);
    // Still serving, and serving the right pages.
    const after = await fetch(`${server.base}/blog/${postSlug}`);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain(`/blog/${postSlug}`);
  }, 120_000);
});

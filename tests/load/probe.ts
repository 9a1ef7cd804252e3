import { Worker } from "node:worker_threads";

import { percentile } from "./harness";

/**
 * A probe that watches a running server while the test makes it work: each path is requested
 * at a steady rate (sequentially, on one keep-alive connection of its own), and the server's
 * resident memory (VmRSS in /proc/<pid>/status) is read every `rssEveryMs`.
 *
 * It runs in a worker thread, so the test's own work (200 clients downloading a CV, building a
 * GIF) does not delay its requests or its clock.
 *
 * Latency is counted from when each request was due, not when it went out: a request stuck
 * behind a stalled event loop delays the ones after it, and those count as late too (as an
 * open-loop client would see them; without this, a 10 s stall would be one slow sample among
 * hundreds of fast ones, and the p99 would hide it). A request still unanswered when the probe
 * stops counts with the time it has waited so far.
 */
export type ProbeOptions = {
  base: string;
  paths: string[];
  /** Pid of the server process whose memory is read. */
  pid: number;
  intervalMs?: number;
  rssEveryMs?: number;
  /** A probe request unanswered after this is abandoned and counted as an error. */
  timeoutMs?: number;
};

export type PathStats = {
  path: string;
  /** Due slots counted, including those a late answer made the probe skip. */
  samples: number;
  /** Requests sent. */
  requests: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  /** How the page cache answered (its X-Page-Cache header), when it said. */
  cache: Record<string, number>;
  /**
   * The same figures over the slots answered from the cache (`hit`) alone: a change that drops
   * the probed page makes its next request a render, which is not a cached page.
   */
  hits: { samples: number; p50: number; p99: number; max: number };
  errors: string[];
};

export type ProbeResult = {
  paths: PathStats[];
  rss: { firstMb: number; peakMb: number; samples: number };
};

const WORKER = `
const http = require("node:http");
const fs = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
const { base, paths, pid, intervalMs, rssEveryMs, timeoutMs } = workerData;

let running = true;
const inFlight = new Set();
const rss = { firstKb: 0, peakKb: 0, samples: 0 };
function readRss() {
  try {
    const kb = Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync("/proc/" + pid + "/status", "utf8"))[1]);
    if (rss.samples === 0) rss.firstKb = kb;
    rss.peakKb = Math.max(rss.peakKb, kb);
    rss.samples++;
  } catch {
    // the process is gone
  }
}
readRss();
const rssTimer = setInterval(readRss, rssEveryMs);

function request(agent, path) {
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer) => {
      if (done) return;
      done = true;
      inFlight.delete(entry);
      clearTimeout(timer);
      resolve(answer);
    };
    const req = http.get(base + path, { agent }, (res) => {
      const cache = res.headers["x-page-cache"];
      res.on("data", () => {});
      res.on("end", () => finish({ status: res.statusCode, cache }));
      res.on("error", (error) => finish({ error: error.message }));
    });
    req.on("error", (error) => finish({ error: error.message }));
    const timer = setTimeout(() => {
      finish({ error: "no answer within " + timeoutMs + " ms" });
      req.destroy();
    }, timeoutMs);
    const entry = { abandon: () => { finish({ stopped: true }); req.destroy(); } };
    inFlight.add(entry);
  });
}

async function loop(path) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const stats = { path, latencies: [], hitLatencies: [], requests: 0, statuses: {}, cache: {}, errors: [] };
  const t0 = performance.now();
  let slot = 0;
  while (running) {
    const due = t0 + slot * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!running) break;
    const answer = await request(agent, path);
    const end = performance.now();
    stats.requests++;
    // A slot's latency is also a hit's when this answer came from the cache.
    const record = (ms) => {
      stats.latencies.push(ms);
      if (answer.cache === "hit") stats.hitLatencies.push(ms);
    };
    record(end - due);
    // The slots that fell due while this request waited: each would have been answered now.
    slot++;
    while (t0 + slot * intervalMs < end) {
      record(end - (t0 + slot * intervalMs));
      slot++;
    }
    if (answer.stopped) break;
    if (answer.error) {
      stats.errors.push(answer.error);
      continue;
    }
    stats.statuses[answer.status] = (stats.statuses[answer.status] || 0) + 1;
    if (answer.status !== 200) stats.errors.push("HTTP " + answer.status);
    if (answer.cache) stats.cache[answer.cache] = (stats.cache[answer.cache] || 0) + 1;
  }
  agent.destroy();
  return stats;
}

const loops = Promise.all(paths.map(loop));
parentPort.once("message", async () => {
  running = false;
  for (const entry of [...inFlight]) entry.abandon();
  const all = await loops;
  clearInterval(rssTimer);
  readRss();
  parentPort.postMessage({ paths: all, rss });
});
`;

type RawStats = Omit<PathStats, "samples" | "p50" | "p99" | "max" | "hits"> & {
  latencies: number[];
  hitLatencies: number[];
};

function summary(latencies: number[]) {
  const sorted = latencies.sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
  };
}

/** Starts probing; `stop()` ends it and returns the figures. */
export function startProbe(options: ProbeOptions) {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { intervalMs: 15, rssEveryMs: 100, timeoutMs: 10_000, ...options },
  });
  const failed = new Promise<never>((_, reject) => worker.once("error", reject));
  return {
    async stop(): Promise<ProbeResult> {
      const answer = new Promise<{
        paths: RawStats[];
        rss: { firstKb: number; peakKb: number; samples: number };
      }>((resolve) => worker.once("message", resolve));
      worker.postMessage("stop");
      const raw = await Promise.race([answer, failed]);
      await worker.terminate();
      return {
        paths: raw.paths.map(({ latencies, hitLatencies, ...rest }) => ({
          ...rest,
          ...summary(latencies),
          hits: summary(hitLatencies),
        })),
        rss: {
          firstMb: raw.rss.firstKb / 1024,
          peakMb: raw.rss.peakKb / 1024,
          samples: raw.rss.samples,
        },
      };
    },
  };
}

/**
 * Probes the site and a reference server (./harness.ts startReferenceServer) on the same paths at
 * the same moments, so the site's figures can be read beside what the machine itself allows.
 */
export function startProbeBeside(
  site: { base: string; pid: number },
  reference: { base: string; pid: number },
  paths: string[],
) {
  const onSite = startProbe({ base: site.base, paths, pid: site.pid });
  const onReference = startProbe({ base: reference.base, paths, pid: reference.pid });
  return {
    async stop() {
      return {
        site: (await onSite.stop()).paths,
        plain: (await onReference.stop()).paths,
      };
    },
  };
}

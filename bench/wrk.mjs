// wrk (https://github.com/wg/wrk) as bench/run.mjs's load generator: one run, and what it prints.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Prints every latency a run recorded, for runs to be merged (mergedPercentileMs). */
const LATENCY_SCRIPT = fileURLToPath(new URL("./wrk-latency.lua", import.meta.url));

/** wrk's durations ("812.00us", "1.52ms", "2.01s", "1.00m") in milliseconds. */
export function wrkMs(text) {
  const [, value, unit] = /^([\d.]+)(us|ms|s|m)$/.exec(text) ?? [];
  if (value === undefined) throw new Error(`wrk printed a latency this bench cannot read: ${text}`);
  return Number(value) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit];
}

/** The figures bench/run.mjs reports, from what `wrk --latency` prints. */
export function parseWrk(output) {
  const numbers = (pattern) => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`wrk's output lacks ${pattern}:\n${output}`);
    return match.slice(1).map(Number);
  };
  const percentile = (p) => {
    const match = new RegExp(`^\\s+${p}%\\s+(\\S+)\\s*$`, "m").exec(output);
    if (!match) throw new Error(`wrk's output lacks the ${p}% latency:\n${output}`);
    return wrkMs(match[1]);
  };
  const [requests] = numbers(/(\d+) requests in /);
  const [reqPerSec] = numbers(/Requests\/sec:\s+([\d.]+)/);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const [connect, read, write, timeouts] = socket ? socket.slice(1).map(Number) : [0, 0, 0, 0];
  const histogram = /^latency-histogram-us (.*)$/m.exec(output);
  return {
    reqPerSec,
    p50Ms: percentile(50),
    p99Ms: percentile(99),
    requests,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    errors: connect + read + write + timeouts,
    timeouts,
    codes: non2xx ? `${non2xx[1]} neither 2xx nor 3xx` : "",
    /** [microseconds, count] for each latency recorded (./wrk-latency.lua), when it ran. */
    latencyHistogram: histogram ? parseHistogram(histogram[1]) : undefined,
  };
}

/** "value:count value:count …" as printed by ./wrk-latency.lua. */
function parseHistogram(text) {
  return text
    .trim()
    .split(" ")
    .filter(Boolean)
    .map((pair) => {
      const [value, count] = pair.split(":").map(Number);
      if (!Number.isInteger(value) || !Number.isInteger(count)) {
        throw new Error(`wrk-latency.lua printed a pair this bench cannot read: ${pair}`);
      }
      return [value, count];
    });
}

/**
 * The `p`th percentile in milliseconds of several runs' latencies together (their
 * histograms merged), ranked as wrk ranks its own: the smallest latency that at least
 * round(p% of the requests + 0.5) requests took or undercut.
 */
export function mergedPercentileMs(histograms, p) {
  const counts = new Map();
  for (const histogram of histograms) {
    for (const [value, count] of histogram) counts.set(value, (counts.get(value) ?? 0) + count);
  }
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) throw new Error("no latencies to take a percentile of");
  const rank = Math.round((p / 100) * total + 0.5);
  let seen = 0;
  for (const value of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(value);
    if (seen >= rank) return value / 1000;
  }
  return Math.max(...counts.keys()) / 1000;
}

/**
 * One run of `wrk` (one thread: the server and the reference need the other cores). `onCore`,
 * when given, maps the command to one run on a chosen core (./cores.mjs).
 */
export function runWrk(wrk, { url, connections, duration, headers, onCore }) {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => [
    "-H",
    `${name}: ${value}`,
  ]);
  const argv = [
    "-t1",
    `-c${connections}`,
    `-d${duration}s`,
    "--timeout",
    "10s",
    "--latency",
    "-s",
    LATENCY_SCRIPT,
  ];
  return new Promise((resolve, reject) => {
    const [command, args] = onCore
      ? onCore(wrk, [...argv, ...headerArgs, url])
      : [wrk, [...argv, ...headerArgs, url]];
    execFile(command, args, (error, stdout, stderr) => {
      if (error) reject(new Error(`wrk failed: ${error.message}\n${stderr}`));
      else resolve(parseWrk(stdout));
    });
  });
}

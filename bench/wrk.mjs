// wrk (https://github.com/wg/wrk) as bench/run.mjs's load generator: one run, and what it prints.
import { execFile } from "node:child_process";

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
  return {
    reqPerSec,
    p50Ms: percentile(50),
    p99Ms: percentile(99),
    requests,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    errors: connect + read + write + timeouts,
    timeouts,
    codes: non2xx ? `${non2xx[1]} neither 2xx nor 3xx` : "",
  };
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
  const argv = ["-t1", `-c${connections}`, `-d${duration}s`, "--timeout", "10s", "--latency"];
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

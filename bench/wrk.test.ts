import { describe, expect, it } from "vitest";

import { mergedPercentileMs, parseWrk, wrkMs } from "./wrk.mjs";

// What `wrk -t1 -c50 -d10s --latency` printed here (wrk 4.1.0), with and without errors.
const CLEAN = `Running 10s test @ http://127.0.0.1:3400/blog
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     6.12ms    1.31ms  30.55ms   91.02%
    Req/Sec     8.21k   512.33     9.01k    80.00%
  Latency Distribution
     50%    5.93ms
     75%    6.40ms
     90%    7.10ms
     99%   11.84ms
  81733 requests in 10.00s, 390.12MB read
Requests/sec:   8172.59
Transfer/sec:     39.01MB
`;

const FAILING = `Running 5s test @ http://127.0.0.1:3400/
  1 threads and 50 connections
  Latency Distribution
     50%  812.00us
     75%    1.52ms
     90%    1.01s
     99%    2.00s
  640 requests in 5.01s, 1.10MB read
  Socket errors: connect 0, read 3, write 1, timeout 7
  Non-2xx or 3xx responses: 12
Requests/sec:    127.74
Transfer/sec:    224.01KB
`;

describe("reading wrk's report", () => {
  it("converts each of wrk's time units to milliseconds", () => {
    expect(wrkMs("812.00us")).toBeCloseTo(0.812);
    expect(wrkMs("1.52ms")).toBe(1.52);
    expect(wrkMs("2.01s")).toBeCloseTo(2010);
    expect(wrkMs("1.00m")).toBe(60_000);
    expect(() => wrkMs("fast")).toThrow("cannot read: fast");
  });

  it("takes rate, percentiles and counts from a clean run", () => {
    expect(parseWrk(CLEAN)).toEqual({
      reqPerSec: 8172.59,
      p50Ms: 5.93,
      p99Ms: 11.84,
      requests: 81733,
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      codes: "",
    });
  });

  it("counts socket errors, timeouts and non-2xx answers, so the bench can fail on them", () => {
    expect(parseWrk(FAILING)).toMatchObject({
      reqPerSec: 127.74,
      p50Ms: 0.812,
      p99Ms: 2000,
      requests: 640,
      non2xx: 12,
      errors: 11,
      timeouts: 7,
      codes: "12 neither 2xx nor 3xx",
    });
  });

  it("refuses a report without the latency distribution (wrk run without --latency)", () => {
    expect(() => parseWrk(CLEAN.replace(/ {5}99%.*\n/, ""))).toThrow("lacks the 99% latency");
  });

  it("reads the latencies that wrk-latency.lua prints after the report", () => {
    const run = parseWrk(`${CLEAN}latency-histogram-us 812:3 5930:40 11840:2\n`);
    expect(run.latencyHistogram).toEqual([
      [812, 3],
      [5930, 40],
      [11840, 2],
    ]);
    expect(() => parseWrk(`${CLEAN}latency-histogram-us 812:x\n`)).toThrow("812:x");
  });
});

describe("percentiles over several runs", () => {
  it("ranks as wrk does: the smallest latency at least round(p% of n + 0.5) requests reached", () => {
    const run = [
      [1000, 50],
      [2000, 49],
      [9000, 1],
    ];
    expect(mergedPercentileMs([run], 50)).toBe(2);
    expect(mergedPercentileMs([run], 99)).toBe(9);
  });

  it("takes the p99 of all requests together, not the worst of the runs' p99s", () => {
    // One slow request in the first second: that second's own p99 is it (50 ms), but it is one
    // request in two hundred.
    const first = [
      [1000, 99],
      [50_000, 1],
    ];
    const second = [[2000, 100]];
    expect(mergedPercentileMs([first], 99)).toBe(50);
    expect(mergedPercentileMs([first, second], 99)).toBe(2);
    expect(mergedPercentileMs([first, second], 99.9)).toBe(50);
  });

  it("refuses runs that recorded nothing", () => {
    expect(() => mergedPercentileMs([[], []], 99)).toThrow("no latencies");
  });
});

import { describe, expect, it } from "vitest";

import { MINUTE_MS } from "./format";
import { JOB_LEASE_MS, JOB_POLL_MS, JOB_RETRY, jobRetryDelayMs } from "./jobs.server";

describe("the job queue's schedule", () => {
  it("waits firstDelayMs after the first failure, doubling, never more than maxDelayMs", () => {
    const delays = Array.from({ length: JOB_RETRY.maxAttempts }, (_, i) => jobRetryDelayMs(i + 1));
    expect(delays[0]).toBe(JOB_RETRY.firstDelayMs);
    for (let i = 1; i < delays.length; i++) {
      expect(delays[i]).toBe(Math.min(2 * delays[i - 1]!, JOB_RETRY.maxDelayMs));
    }
    expect(delays.map((ms) => ms / MINUTE_MS)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(jobRetryDelayMs(100)).toBe(JOB_RETRY.maxDelayMs);
  });

  it("lets a live worker look several times within one lease", () => {
    expect(JOB_LEASE_MS).toBeGreaterThan(2 * JOB_POLL_MS);
  });
});

import { afterEach, beforeEach, expect, it, vi } from "vitest";

import { AT_REST_COLLECTION } from "../app/lib/limits";
import { collectAtRest } from "./at-rest";

const { checkEveryMs, quietCpuShare, growthBytes } = AT_REST_COLLECTION;
const MB = 1024 * 1024;
/** CPU a period may use and still be quiet, and a little more than that. */
const QUIET_US = checkEveryMs * 1000 * quietCpuShare;

/** A process whose CPU, memory and job worker the test sets; `collect` drops what it holds. */
function fakeProcess() {
  const state = {
    cpuMicros: 0,
    heldBytes: 200 * MB,
    liveBytes: 150 * MB,
    busy: false,
    requests: 0,
  };
  const collect = vi.fn(() => {
    state.heldBytes = state.liveBytes;
  });
  const collector = collectAtRest({
    collect,
    busy: () => state.busy,
    requests: () => state.requests,
    cpuMicros: () => state.cpuMicros,
    heldBytes: () => state.heldBytes,
  });
  const period = (cpuMicros: number) => {
    state.cpuMicros += cpuMicros;
    vi.advanceTimersByTime(checkEveryMs);
  };
  return { state, collect, collector, period };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it("collects once when the server comes to rest after its start, and says what it gave back", () => {
  const { collect, collector, period } = fakeProcess();
  // The start's last work: busy periods collect nothing.
  period(QUIET_US * 50);
  period(QUIET_US + 1);
  expect(collect).not.toHaveBeenCalled();
  period(QUIET_US / 2);
  expect(collect).toHaveBeenCalledTimes(1);
  expect(console.log).toHaveBeenCalledWith(
    expect.stringContaining('"event":"memory_collected_at_rest","heldMB":200,"afterMB":150'),
  );
  // At rest with nothing new held: nothing more to give back.
  for (let i = 0; i < 10; i++) period(0);
  expect(collect).toHaveBeenCalledTimes(1);
  collector.stop();
});

it("waits while a job runs, however quiet the process is", () => {
  const { state, collect, collector, period } = fakeProcess();
  state.busy = true;
  for (let i = 0; i < 5; i++) period(0);
  expect(collect).not.toHaveBeenCalled();
  state.busy = false;
  period(0);
  expect(collect).toHaveBeenCalledTimes(1);
  collector.stop();
});

it("collects again only after a new burst left the growth it waits for", () => {
  const { state, collect, collector, period } = fakeProcess();
  period(0);
  expect(collect).toHaveBeenCalledTimes(1);
  // A burst that left less than the growth: nothing.
  state.heldBytes += growthBytes - 1;
  period(QUIET_US * 20);
  period(0);
  expect(collect).toHaveBeenCalledTimes(1);
  // Another that brings it to the growth: one collection, once quiet.
  state.heldBytes += 1;
  period(QUIET_US * 20);
  expect(collect).toHaveBeenCalledTimes(1);
  period(0);
  expect(collect).toHaveBeenCalledTimes(2);
  collector.stop();
});

it("does not count the collection's own CPU as the next period's work", () => {
  const { state, collect, collector, period } = fakeProcess();
  collect.mockImplementation(() => {
    state.heldBytes = state.liveBytes;
    state.cpuMicros += QUIET_US * 100;
  });
  period(0);
  expect(collect).toHaveBeenCalledTimes(1);
  state.heldBytes += growthBytes;
  period(0);
  expect(collect).toHaveBeenCalledTimes(2);
  collector.stop();
});

it("waits for a period with no request, however little CPU the requests take", () => {
  const { state, collect, collector, period } = fakeProcess();
  for (let i = 0; i < 5; i++) {
    state.requests += 1;
    period(0);
  }
  expect(collect).not.toHaveBeenCalled();
  period(0);
  expect(collect).toHaveBeenCalledTimes(1);
  collector.stop();
});

it("stops looking when stopped", () => {
  const { collect, collector, period } = fakeProcess();
  collector.stop();
  for (let i = 0; i < 5; i++) period(0);
  expect(collect).not.toHaveBeenCalled();
});

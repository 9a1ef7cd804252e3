import { describe, expect, it } from "vitest";

import {
  DAY_MS,
  formatBytes,
  formatCount,
  formatDuration,
  formatLongDate,
  formatPeriod,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
} from "./format";

describe("formatPeriod", () => {
  it("reads {from} - {to} for a finished job or study", () => {
    expect(formatPeriod("Jan 2021", "Feb 2023", false)).toBe("Jan 2021 - Feb 2023");
  });
  it("reads {from} - Present while current, whatever the end date says", () => {
    expect(formatPeriod("Mar 2023", null, true)).toBe("Mar 2023 - Present");
    expect(formatPeriod("Mar 2023", "Dec 2023", true)).toBe("Mar 2023 - Present");
  });
});

describe("formatLongDate", () => {
  it("uses the en-US long form", () => {
    expect(formatLongDate(new Date("2026-11-22T10:00:00Z"))).toBe("November 22, 2026");
    expect(formatLongDate("2026-01-05T00:00:00Z")).toBe("January 5, 2026");
  });
  it("keeps the stored day whatever the server's time zone (shown in UTC)", () => {
    expect(formatLongDate("2026-03-01T23:30:00Z")).toBe("March 1, 2026");
  });
});

describe("formatCount", () => {
  it("groups thousands as the texts write them", () => {
    expect(formatCount(200)).toBe("200");
    expect(formatCount(10_000)).toBe("10,000");
  });
});

describe("formatDuration", () => {
  it("says a duration in the largest whole unit", () => {
    expect(formatDuration(HOUR_MS)).toBe("an hour");
    expect(formatDuration(10 * MINUTE_MS)).toBe("10 minutes");
    expect(formatDuration(30 * DAY_MS)).toBe("30 days");
    expect(formatDuration(5 * SECOND_MS)).toBe("5 seconds");
    expect(formatDuration(MINUTE_MS)).toBe("a minute");
  });
  it("never rounds: a duration that is not whole hours stays in minutes", () => {
    expect(formatDuration(90 * MINUTE_MS)).toBe("90 minutes");
    expect(formatDuration(1500)).toBe("1,500 ms");
  });
});

describe("formatBytes", () => {
  it("says a size in the largest whole unit, decimal or binary", () => {
    expect(formatBytes(1_000_000)).toBe("1 MB");
    expect(formatBytes(3_000_000)).toBe("3 MB");
    expect(formatBytes(1024 * 1024)).toBe("1 MB");
    expect(formatBytes(256 * 1024)).toBe("256 KB");
    expect(formatBytes(90_000)).toBe("90 KB");
  });
  it("never rounds: an odd size is given in bytes", () => {
    expect(formatBytes(1_500_001)).toBe("1,500,001 bytes");
    expect(formatBytes(1)).toBe("1 byte");
  });
});

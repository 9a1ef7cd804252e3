import { describe, expect, it } from "vitest";

import { formatLongDate, formatPeriod } from "./format";

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

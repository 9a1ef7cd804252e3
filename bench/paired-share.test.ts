import { describe, expect, it } from "vitest";

import { pairedShare } from "./paired-share.mjs";

describe("pairedShare", () => {
  it("is the median of the rounds' ratios, so one slice in a burst does not move it", () => {
    // /blog's ten pairs in one run: the seventh reference slice came in a quiet moment that the
    // app's slice missed.
    const reference = [
      30_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000,
    ];
    const app = [23_400, 25_800, 23_100, 26_400, 25_500, 23_400, 14_100, 26_100, 19_200, 25_200];
    expect(pairedShare(app, reference)).toBeCloseTo(81, 5);
  });

  it("pairs slices by round: a slow round slows both and leaves the share", () => {
    expect(pairedShare([8_000, 16_000, 16_000], [10_000, 20_000, 20_000])).toBeCloseTo(80, 5);
    // The ratio of the means of the same slices would be 80 % too; here it is not.
    expect(pairedShare([9_000, 16_000], [10_000, 20_000])).toBeCloseTo(85, 5);
  });
});

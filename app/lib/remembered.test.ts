import { describe, expect, it } from "vitest";

import { remembered } from "./remembered";

/** An upper-casing transform that counts its calls. */
function counted() {
  const calls: string[] = [];
  const transform = (input: string) => {
    calls.push(input);
    return input.toUpperCase();
  };
  return { calls, transform };
}

describe("remembered", () => {
  it("runs the transform once per input and answers repeats from memory", () => {
    const { calls, transform } = counted();
    const upper = remembered(transform, 100);
    expect(upper("abc")).toBe("ABC");
    // Equal strings made apart (as two reads of one row are) find the same answer.
    expect(upper(["a", "b", "c"].join(""))).toBe("ABC");
    expect(upper("xyz")).toBe("XYZ");
    expect(calls).toEqual(["abc", "xyz"]);
  });

  it("keeps at most maxChars characters, forgetting the least recently used", () => {
    const { calls, transform } = counted();
    // Each answer counts its input and its output: 10 characters for a 5-letter input.
    const upper = remembered(transform, 20);
    upper("aaaaa");
    upper("bbbbb");
    upper("aaaaa"); // now the most recent
    upper("ccccc"); // over 20: "bbbbb" goes
    upper("aaaaa");
    upper("bbbbb");
    expect(calls).toEqual(["aaaaa", "bbbbb", "ccccc", "bbbbb"]);
  });

  it("never keeps an answer larger than the whole bound, and still gives it", () => {
    const { calls, transform } = counted();
    const upper = remembered(transform, 10);
    const long = "x".repeat(6);
    expect(upper(long)).toBe("XXXXXX");
    expect(upper(long)).toBe("XXXXXX");
    expect(calls).toEqual([long, long]);
  });
});

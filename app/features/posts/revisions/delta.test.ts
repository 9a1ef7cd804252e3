import { describe, expect, it } from "vitest";

import { applyDelta, commonEnds, makeDelta } from "./delta";

const words = (n: number, prefix = "w") =>
  Array.from({ length: n }, (_, i) => `${prefix}${(i * 7919) % 1000}`).join(" ");

describe("revision deltas", () => {
  it("give back the text exactly, markup, spaces and non-ASCII included", async () => {
    const rest = `<p>${words(200)}</p>`;
    const base = `<p>Hola <strong>mundo</strong>,  qué tal?</p><pre><code>a\n\tb</code></pre>${rest}`;
    const text = `<p>Hola <em>amigos</em> del mundo, ¿qué tal? 🎉</p><pre><code>a\n\tc</code></pre>${rest}`;
    const delta = makeDelta(base, text);
    expect(delta).not.toBeNull();
    expect(applyDelta(base, delta!)).toBe(text);
    expect(applyDelta(text, makeDelta(text, base)!)).toBe(base);
  });

  it("are small for a small edit of a long text", async () => {
    const base = `<p>${words(5000)}</p>`;
    const text = base.replace("w1 ", "w1 inserted words here ").replace(/w500 /, "");
    const delta = makeDelta(base, text)!;
    expect(applyDelta(base, delta)).toBe(text);
    expect(JSON.stringify(delta).length).toBeLessThan(200);
  });

  it("are refused when the texts have little in common, so the text is stored whole", async () => {
    expect(makeDelta(words(3000, "a"), words(3000, "b"))).toBeNull();
  });

  it("of equal texts copies the text", async () => {
    expect(makeDelta("same", "same")).toEqual([4]);
    expect(applyDelta("same", [4])).toBe("same");
    expect(applyDelta("", [])).toBe("");
  });

  it("refuse a delta that does not fit its base", () => {
    expect(() => applyDelta("short", [10])).toThrow(/does not fit/);
    expect(() => applyDelta("short", [2])).toThrow(/does not fit/);
  });

  it("give back the text exactly for random edits anywhere, the ends included", () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = ["<p>", "</p>", " ", "word", "añade", "<strong>b</strong>", "\n", "x", "🎉"];
    let base = Array.from({ length: 400 }, () => pieces[random(pieces.length)]).join("");
    for (let round = 0; round < 300; round++) {
      const at = random(base.length + 1);
      const cut = random(6);
      const text =
        base.slice(0, at) + pieces[random(pieces.length)]!.repeat(random(3)) + base.slice(at + cut);
      const delta = makeDelta(base, text);
      if (delta) expect(applyDelta(base, delta)).toBe(text);
      base = text;
    }
  });

  it("diff only between the texts' common start and end, at a word's edge", () => {
    expect(commonEnds("<p>one two three</p>", "<p>one too three</p>")).toEqual({
      start: 7,
      end: 10,
    });
    expect(commonEnds("same", "same and more")).toEqual({ start: 0, end: 0 });
  });
});

import { describe, expect, it } from "vitest";

import { wordChanges } from "./word-changes";

describe("word changes", () => {
  it("count the words added and removed as the post reads", async () => {
    expect(
      wordChanges(
        "<p>The quick brown fox</p><p>jumps</p>",
        "<p>The quick <strong>red</strong> fox</p><p>jumps high</p>",
      ),
    ).toEqual({ added: 2, removed: 1 });
  });

  it("see words on each side of a paragraph break as two words", async () => {
    expect(wordChanges("<p>one</p><p>two</p>", "<p>one two</p>")).toEqual({
      added: 0,
      removed: 0,
    });
  });

  it("count a rewrite from the words' tallies", async () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join(" ");
    const after = Array.from({ length: 2500 }, (_, i) => `b${i}`).join(" ");
    expect(wordChanges(`<p>${before}</p>`, `<p>${after}</p>`)).toEqual({
      added: 2500,
      removed: 3000,
    });
  });
});

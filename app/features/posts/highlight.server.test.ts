import { expect, test } from "vitest";

import { highlightCodeBlocks, loadHighlighter } from "./highlight.server";

// A grammar's first highlight compiles its rules (hundreds of milliseconds for some on a busy
// machine): a save or an import's post that brings new languages lets requests run between
// them, rather than holding the event loop for all of them at once.
test("each grammar's first use is followed by a turn of the event loop", async () => {
  await loadHighlighter();
  const html = ["python", "rust", "yaml"]
    .map((language) => `<pre><code class="language-${language}">x = 1</code></pre>`)
    .join("");
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const first = await highlightCodeBlocks(html);
  running = false;
  expect(turns).toBeGreaterThanOrEqual(2);
  // Warmed grammars highlight as they did the first time, with no further turns.
  turns = 0;
  expect(await highlightCodeBlocks(html)).toBe(first);
  expect(turns).toBe(0);
});

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

import { expect, it } from "vitest";

import { tickChurnSource } from "./tick-churn.mjs";
import { keepTickObjectMaps } from "./tick-maps.mjs";

const root = path.join(import.meta.dirname, "..");

/**
 * A process that frees what it can between rounds of ticks, as a busy start does, then prints
 * the states of the inline caches through which `process.nextTick` adds its tick object's keys
 * (V8's own report of the function: --allow-natives-syntax).
 */
function tickKeyCaches(keep: boolean) {
  const child = `${tickChurnSource(keep)}
    %DebugPrint(process.nextTick);
  `;
  const report = execFileSync(
    process.execPath,
    ["--allow-natives-syntax", "--expose-gc", "--input-type=module", "-e", child],
    { encoding: "utf8" },
  );
  return [...report.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]);
}

it("without a tick object held, collected maps turn nextTick's key caches megamorphic", () => {
  // The failure the module exists for: if this stops happening (a V8 that keeps the maps, or
  // builds ticks otherwise), server/tick-maps.mjs can go.
  const states = tickKeyCaches(false);
  expect(states.length).toBeGreaterThanOrEqual(3);
  expect(states).toContain("MEGAMORPHIC");
});

it("with one tick object held from the start, every key cache of nextTick stays monomorphic", () => {
  const states = tickKeyCaches(true);
  expect(states.length).toBeGreaterThanOrEqual(3);
  expect(new Set(states)).toEqual(new Set(["MONOMORPHIC"]));
});

it("holds a tick object as Node builds it, and the same one when called again", () => {
  const kept = keepTickObjectMaps();
  expect(kept).toBeTypeOf("object");
  expect(Object.getOwnPropertySymbols(kept).map(String)).toContain("Symbol(async_id_symbol)");
  expect(keepTickObjectMaps()).toBe(kept);
});

it("the server keeps them before it loads anything else", () => {
  const entry = readFileSync(path.join(root, "server.js"), "utf8");
  const kept = entry.indexOf("\nkeepTickObjectMaps();");
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(entry.indexOf("await import("));
});

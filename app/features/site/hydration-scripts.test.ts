import type { UNSAFE_AssetsManifest as AssetsManifest } from "react-router";
import { describe, expect, it } from "vitest";

import { loaderSource, PAINT_WAIT_LIMIT_MS } from "./hydration-scripts";

const manifest = {
  version: "test",
  url: "/assets/manifest.js",
  entry: { module: "/assets/entry.js", imports: ["/assets/react-dom.js", "/assets/shared.js"] },
  routes: {
    root: { id: "root", module: "/assets/root.js", imports: ["/assets/shared.js"] },
    "routes/a": {
      id: "routes/a",
      parentId: "root",
      module: "/assets/a.js",
      clientLoaderModule: "/assets/a-loader.js",
      imports: ["/assets/icons.js"],
    },
  },
} as unknown as AssetsManifest;

type Step = string;

/**
 * Runs the loader as the browser would, with its dynamic imports, the DOM calls and the paint
 * signal recorded in order: the generated text itself, not a copy of it.
 */
async function run(routeIds: string[], paintTimingSupported = true, paints = true) {
  const steps: Step[] = [];
  const window: { __reactRouterRouteModules?: Record<string, object> } = {};
  let paint: (() => void) | undefined;
  class FakeObserver {
    static supportedEntryTypes = paintTimingSupported ? ["paint", "resource"] : ["resource"];
    constructor(
      private readonly callback: (
        list: { getEntriesByName(name: string): unknown[] },
        observer: FakeObserver,
      ) => void,
    ) {}
    observe() {
      paint = () => {
        steps.push("painted");
        this.callback({ getEntriesByName: () => [{}] }, this);
      };
    }
    disconnect() {}
  }
  const document = {
    querySelector: () => ({ nonce: "abc" }),
    createElement: () => ({}) as Record<string, string>,
    head: {
      append: (link: Record<string, string>) =>
        steps.push(`${link.rel} ${link.href} nonce=${link.nonce}`),
    },
  };
  /** Timers with a delay wait for the test to fire them; a zero delay runs at once. */
  const timers: { delay: number; callback: () => void }[] = [];
  const load = (href: string) => {
    steps.push(`import ${href}`);
    if (href === "/assets/entry.js") {
      steps.push(`modules ${Object.keys(window.__reactRouterRouteModules ?? {}).join(",")}`);
    }
    return Promise.resolve({ [`from ${href}`]: true });
  };
  const source = loaderSource(manifest, routeIds).replaceAll("import(", "load(");
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const body = new AsyncFunction(
    "window",
    "document",
    "PerformanceObserver",
    "requestAnimationFrame",
    "setTimeout",
    "load",
    source,
  );
  const done = body(
    window,
    document,
    FakeObserver,
    (frame: () => void) => {
      paint = () => {
        steps.push("frame");
        frame();
      };
    },
    (callback: () => void, delay: number) =>
      delay === 0 ? queueMicrotask(callback) : timers.push({ delay, callback }),
    load,
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  steps.push("(before the paint)");
  if (paints) paint?.();
  else {
    steps.push(`(no paint: timers of ${timers.map((timer) => timer.delay).join(", ")} ms fire)`);
    for (const timer of timers) timer.callback();
  }
  await done;
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { steps, modules: window.__reactRouterRouteModules };
}

describe("the hydration loader", () => {
  it("loads nothing until the first contentful paint, then preloads every chunk at once", async () => {
    const { steps } = await run(["root", "routes/a"]);
    expect(steps.slice(0, 2)).toEqual(["(before the paint)", "painted"]);
    expect(steps.slice(2, 10)).toEqual([
      "modulepreload /assets/manifest.js nonce=abc",
      "modulepreload /assets/entry.js nonce=abc",
      "modulepreload /assets/react-dom.js nonce=abc",
      "modulepreload /assets/shared.js nonce=abc",
      "modulepreload /assets/root.js nonce=abc",
      "modulepreload /assets/a-loader.js nonce=abc",
      "modulepreload /assets/a.js nonce=abc",
      "modulepreload /assets/icons.js nonce=abc",
    ]);
    expect(steps.length).toBeGreaterThan(10);
  });

  it("imports as <Scripts> does: the manifest, each route's chunks in order, then the entry", async () => {
    const { steps, modules } = await run(["root", "routes/a"]);
    expect(steps.filter((step) => !step.startsWith("modulepreload")).slice(2)).toEqual([
      "import /assets/manifest.js",
      "import /assets/root.js",
      "import /assets/a-loader.js",
      "import /assets/a.js",
      "import /assets/entry.js",
      // The entry finds every matched route's module in place.
      "modules root,routes/a",
    ]);
    // A route split into chunks is one module object, as React Router merges it.
    expect(modules?.["routes/a"]).toEqual({
      "from /assets/a-loader.js": true,
      "from /assets/a.js": true,
    });
    expect(modules?.root).toEqual({ "from /assets/root.js": true });
  });

  it("waits for the next frame where the browser has no paint timing", async () => {
    const { steps } = await run(["root"], false);
    expect(steps.slice(0, 3)).toEqual([
      "(before the paint)",
      "frame",
      "modulepreload /assets/manifest.js nonce=abc",
    ]);
  });

  it("hydrates after the wait limit when no paint is ever reported", async () => {
    const { steps, modules } = await run(["root"], true, false);
    expect(steps.slice(0, 3)).toEqual([
      "(before the paint)",
      `(no paint: timers of ${PAINT_WAIT_LIMIT_MS} ms fire)`,
      "modulepreload /assets/manifest.js nonce=abc",
    ]);
    expect(modules?.root).toEqual({ "from /assets/root.js": true });
  });

  it("names a route missing from the client manifest", () => {
    expect(() => loaderSource(manifest, ["routes/missing"])).toThrow(
      "Route routes/missing is not in the client manifest",
    );
  });
});

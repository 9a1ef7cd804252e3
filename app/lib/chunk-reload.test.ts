import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { chunkReloadKey, importOrReloadOnce } from "./chunk-reload";

const key = chunkReloadKey("editor", "/blog/new");
const failed = () => Promise.reject(new TypeError("Failed to fetch dynamically imported module"));
const fallback = () => "fallback";

describe("importOrReloadOnce", () => {
  let storage: Map<string, string>;
  let reload: ReturnType<typeof vi.fn>;
  let error: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    storage = new Map();
    reload = vi.fn();
    vi.stubGlobal("window", {
      location: { pathname: "/blog/new", reload },
      sessionStorage: {
        getItem: (k: string) => storage.get(k) ?? null,
        setItem: (k: string, v: string) => void storage.set(k, v),
        removeItem: (k: string) => void storage.delete(k),
      },
    });
    error = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("returns the module and clears the flag a reload left", async () => {
    storage.set(key, "1");
    expect(await importOrReloadOnce("editor", () => Promise.resolve("module"), fallback)).toBe(
      "module",
    );
    expect(storage.has(key)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it("on a first failure logs it, sets the flag and reloads, staying pending", async () => {
    const result = importOrReloadOnce("editor", failed, fallback);
    const settled = await Promise.race([
      result.then(() => "settled"),
      tick().then(() => "pending"),
    ]);
    expect(settled).toBe("pending");
    expect(reload).toHaveBeenCalledTimes(1);
    expect(storage.has(key)).toBe(true);
    expect(error).toHaveBeenCalledWith(
      "The editor's code could not load; reloading the page once to fetch it again.",
      expect.any(TypeError),
    );
  });

  it("fails again after the reload: the fallback, no second reload", async () => {
    storage.set(key, "1");
    expect(await importOrReloadOnce("editor", failed, fallback)).toBe("fallback");
    expect(reload).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith(
      "The editor's code could not load, even after a reload; not reloading again.",
      expect.any(TypeError),
    );
  });

  it("the flag is per path: a failure on another page still reloads once", async () => {
    storage.set(chunkReloadKey("editor", "/blog/7/edit"), "1");
    void importOrReloadOnce("editor", failed, fallback);
    await tick();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("without storage it cannot guard a reload, so it shows the fallback", async () => {
    const blocked = () => {
      throw new DOMException("denied", "SecurityError");
    };
    vi.stubGlobal("window", {
      location: { pathname: "/blog/new", reload },
      sessionStorage: { getItem: blocked, setItem: blocked, removeItem: blocked },
    });
    expect(await importOrReloadOnce("editor", failed, fallback)).toBe("fallback");
    expect(await importOrReloadOnce("editor", () => Promise.resolve("module"), fallback)).toBe(
      "module",
    );
    expect(reload).not.toHaveBeenCalled();
  });
});

function tick() {
  return new Promise((resolve) => setTimeout(resolve, 10));
}

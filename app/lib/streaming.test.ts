import { describe, expect, it, vi } from "vitest";

import { emptyOnError } from "./safe";
import { isClientNavigation } from "./streaming";

describe("isClientNavigation", () => {
  it("is true only for the browser's fetch() requests", () => {
    expect(
      isClientNavigation(new Request("http://x/", { headers: { "sec-fetch-dest": "empty" } })),
    ).toBe(true);
    expect(
      isClientNavigation(new Request("http://x/", { headers: { "sec-fetch-dest": "document" } })),
    ).toBe(false);
    expect(isClientNavigation(new Request("http://x/"))).toBe(false);
  });
});

describe("emptyOnError", () => {
  it("passes rows through", async () => {
    await expect(emptyOnError(Promise.resolve([1, 2]), "label")).resolves.toEqual([1, 2]);
  });
  it("logs the label with the error and yields an empty list", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const failure = new Error("boom");
    await expect(
      emptyOnError(Promise.reject(failure), "Error fetching experiences:"),
    ).resolves.toEqual([]);
    // The message only: an error object would carry a failed query's values into the log.
    expect(error).toHaveBeenCalledWith("Error fetching experiences:", "boom");
    error.mockRestore();
  });
});

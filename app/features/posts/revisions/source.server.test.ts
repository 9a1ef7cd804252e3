import { describe, expect, it } from "vitest";

import { browserOf, changedWhere, revisionSourceOf } from "./source.server";

describe("a save's source", () => {
  it("names the browser and system", () => {
    expect(
      browserOf(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      ),
    ).toBe("Chrome on Linux");
    expect(
      browserOf(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0",
      ),
    ).toBe("Firefox on macOS");
    expect(browserOf(null)).toBeNull();
    expect(browserOf("curl/8.0")).toBeNull();
  });

  it("keeps only a hash of the device token and a well-formed window id", () => {
    const request = new Request("http://x/", {
      headers: { "x-editor-window": "abcdefgh1234", "user-agent": "Firefox/1 Windows" },
    });
    const source = revisionSourceOf(request, "secret-token");
    expect(source.device).not.toContain("secret-token");
    expect(source.device).toHaveLength(43);
    expect(source.session).toBe("abcdefgh1234");
    const bad = new Request("http://x/", { headers: { "x-editor-window": "<script>" } });
    expect(revisionSourceOf(bad, null)).toEqual({ device: null, session: null, agent: null });
  });

  it("tells another window of this browser from another device", () => {
    const here = { device: "d1", session: "w1", agent: null };
    expect(changedWhere({ device: "d1", session: "w2", agent: null }, here)).toBe("another-window");
    expect(changedWhere({ device: "d2", session: "w3", agent: null }, here)).toBe("another-device");
    expect(changedWhere({ device: "d1", session: "w1", agent: null }, here)).toBe("this-window");
  });
});

import { describe, expect, it } from "vitest";

import { isCrossSite } from "./cross-site";

const site = "https://www.example.com";
const request = (method: string, headers: Record<string, string>) =>
  new Request("http://127.0.0.1:3000/api/posts", { method, headers });

describe("isCrossSite", () => {
  it("lets reads through whatever their origin", () => {
    expect(isCrossSite(request("GET", { origin: "https://evil.example" }), site)).toBe(false);
  });
  it("accepts writes from this site's origin, or the request's own", () => {
    expect(isCrossSite(request("POST", { origin: "https://www.example.com" }), site)).toBe(false);
    expect(isCrossSite(request("POST", { origin: "http://127.0.0.1:3000" }), site)).toBe(false);
    expect(isCrossSite(request("DELETE", { "sec-fetch-site": "same-origin" }), site)).toBe(false);
    expect(isCrossSite(request("POST", {}), site)).toBe(false);
  });
  it("refuses writes from another origin, a null origin, or a cross-site fetch", () => {
    expect(isCrossSite(request("POST", { origin: "https://evil.example" }), site)).toBe(true);
    expect(isCrossSite(request("PUT", { origin: "null" }), site)).toBe(true);
    expect(isCrossSite(request("POST", { "sec-fetch-site": "cross-site" }), site)).toBe(true);
    expect(isCrossSite(request("POST", { "sec-fetch-site": "same-site" }), site)).toBe(true);
    expect(
      isCrossSite(request("POST", { origin: "https://www.example.com.evil.example" }), site),
    ).toBe(true);
  });
});

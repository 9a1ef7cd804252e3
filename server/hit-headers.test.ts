import { describe, expect, it } from "vitest";

import { hitHeaders } from "./hit-headers";

describe("hitHeaders", () => {
  it("reads the four headers a hit needs, whatever the client's spelling, and nothing else", () => {
    const raw = [
      "Host",
      "example.com",
      "ACCEPT",
      "text/html",
      "Accept-Encoding",
      "gzip, br",
      "if-none-match",
      'W/"abc"',
      "Cookie",
      "theme=dark",
      "Accept-Language",
      "en",
    ];
    expect(hitHeaders(raw)).toStrictEqual({
      cookie: "theme=dark",
      accept: "text/html",
      acceptEncoding: "gzip, br",
      ifNoneMatch: 'W/"abc"',
    });
  });

  it("answers one shape when headers are missing: every field there, undefined", () => {
    const answer = hitHeaders(["Host", "example.com"]);
    expect(Object.keys(answer ?? {})).toEqual([
      "cookie",
      "accept",
      "acceptEncoding",
      "ifNoneMatch",
    ]);
    expect(Object.values(answer ?? {})).toEqual([undefined, undefined, undefined, undefined]);
  });

  it.each([
    ["Accept", "accept"],
    ["Cookie", "COOKIE"],
    ["accept-encoding", "Accept-Encoding"],
    ["If-None-Match", "if-none-match"],
  ])("gives the request to the full app (null) when %s comes twice", (first, second) => {
    expect(hitHeaders([first, "a", "Host", "example.com", second, "b"])).toBeNull();
  });
});

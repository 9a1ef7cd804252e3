import { describe, expect, it } from "vitest";

import { forwardedProtoOf, hitHeaders } from "./hit-headers";

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

describe("forwardedProtoOf", () => {
  it("reads X-Forwarded-Proto whatever its spelling, and joins repeats as node:http does", async () => {
    expect(forwardedProtoOf(["Host", "a", "X-Forwarded-Proto", "https"])).toBe("https");
    expect(forwardedProtoOf(["x-forwarded-proto", "https", "X-FORWARDED-PROTO", "http"])).toBe(
      "https, http",
    );
    expect(forwardedProtoOf(["Host", "a", "X-Forwarded-For", "10.0.0.1"])).toBeNull();

    // The same value node:http's req.headers gives, on a real request.
    const { createServer, request } = await import("node:http");
    const server = createServer((req, res) => {
      res.end(JSON.stringify([req.headers["x-forwarded-proto"], forwardedProtoOf(req.rawHeaders)]));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const body = await new Promise<string>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/" }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.setHeader("X-Forwarded-Proto", ["https", "http"]);
      req.end();
    });
    server.close();
    const [fromNode, fromRaw] = JSON.parse(body) as [string, string];
    expect(fromRaw).toBe(fromNode);
    expect(fromRaw).toBe("https, http");
  });
});

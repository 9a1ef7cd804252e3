import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { OUTGOING_FETCH } from "./limits";
import { FetchRefused, isPublicAddress, safeFetch } from "./safe-fetch.server";

let server: Server;
let base: string;
const seen: { method: string; url: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", body });
      const url = new URL(req.url ?? "/", "http://x");
      const hops = Number(url.searchParams.get("hops") ?? 0);
      if (url.pathname === "/chain") {
        if (hops === 0) return res.end("arrived");
        res.writeHead(302, { location: `chain?hops=${hops - 1}` });
        return res.end();
      }
      if (url.pathname === "/see-other") {
        res.writeHead(303, { location: "/echo" });
        return res.end();
      }
      if (url.pathname === "/echo") return res.end(`${req.method} ${body}`);
      if (url.pathname === "/declared-large") {
        res.writeHead(200, { "content-length": String(OUTGOING_FETCH.maxBytes + 1) });
        return res.end("x".repeat(OUTGOING_FETCH.maxBytes + 1));
      }
      if (url.pathname === "/streamed-large") {
        res.writeHead(200);
        const chunk = "y".repeat(64 * 1024);
        for (let i = 0; i <= OUTGOING_FETCH.maxBytes / chunk.length; i++) res.write(chunk);
        return res.end();
      }
      if (url.pathname === "/slow") return setTimeout(() => res.end("late"), 2000);
      if (url.pathname === "/gone") {
        res.writeHead(410, { "content-type": "text/plain" });
        return res.end("gone");
      }
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function refusalOf(promise: Promise<unknown>): Promise<FetchRefused> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FetchRefused);
  return error as FetchRefused;
}

describe("isPublicAddress", () => {
  it.each([
    ["8.8.8.8", true],
    ["93.184.216.34", true],
    ["2606:4700:4700::1111", true],
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.20.0.1", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["::1", false],
    ["::", false],
    ["::ffff:127.0.0.1", false],
    ["fd00::1", false],
    ["fe80::1", false],
    ["not an address", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe("safeFetch", () => {
  it("refuses loopback by address and by a name that resolves to it, sending nothing", async () => {
    const before = seen.length;
    expect((await refusalOf(safeFetch(`${base}/`))).reason).toBe("private-address");
    const port = new URL(base).port;
    expect((await refusalOf(safeFetch(`http://localhost:${port}/`))).reason).toBe(
      "private-address",
    );
    expect(seen.length).toBe(before);
  });

  it("reaches loopback when private addresses are allowed", async () => {
    const answer = await safeFetch(`${base}/`, { allowPrivate: true });
    expect(answer.status).toBe(200);
    expect(answer.text()).toBe("ok");
  });

  it("refuses URLs that are not http or https", async () => {
    expect((await refusalOf(safeFetch("ftp://example.com/x"))).reason).toBe("bad-url");
    expect((await refusalOf(safeFetch("not a url"))).reason).toBe("bad-url");
  });

  it(`follows ${OUTGOING_FETCH.maxRedirects} relative redirects, and refuses one more`, async () => {
    const hops = OUTGOING_FETCH.maxRedirects;
    const answer = await safeFetch(`${base}/chain?hops=${hops}`, { allowPrivate: true });
    expect(answer.text()).toBe("arrived");
    expect(answer.url).toBe(`${base}/chain?hops=0`);
    const refused = await refusalOf(
      safeFetch(`${base}/chain?hops=${hops + 1}`, { allowPrivate: true }),
    );
    expect(refused.reason).toBe("redirects");
  });

  it("continues a POST answered 303 as a GET without its body", async () => {
    const answer = await safeFetch(`${base}/see-other`, {
      method: "POST",
      body: "source=a",
      allowPrivate: true,
    });
    expect(answer.text()).toBe("GET ");
  });

  it("stops reading at the size bound, declared or streamed", async () => {
    for (const path of ["/declared-large", "/streamed-large"]) {
      const refused = await refusalOf(safeFetch(`${base}${path}`, { allowPrivate: true }));
      expect(refused.reason).toBe("too-large");
    }
  });

  it("gives up at its time bound", async () => {
    const refused = await refusalOf(
      safeFetch(`${base}/slow`, { allowPrivate: true, timeoutMs: 200 }),
    );
    expect(refused.reason).toBe("timeout");
  });

  it("answers any HTTP status as an answer, with its headers", async () => {
    const answer = await safeFetch(`${base}/gone`, { allowPrivate: true });
    expect(answer.status).toBe(410);
    expect(answer.headers.get("content-type")).toBe("text/plain");
  });
});

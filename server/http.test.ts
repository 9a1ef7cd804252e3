import { createServer } from "node:http";
import { connect, type AddressInfo } from "node:net";

import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { parseEnv } from "../app/lib/env.server";
import { BODY_LIMITS } from "../app/lib/limits";
import type { DatabaseHandle } from "../database/db.server";
import { appRouteManifest } from "../tests/app-routes";
import { createHttpApp } from "./http";

/** A database that always answers (what /healthz does with a real one: tests/integration). */
const database = { db: {}, kind: "pglite", ping: async () => {} } as unknown as DatabaseHandle;

describe("the HTTP app", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const app = (settings: Record<string, string> = {}, ownerReady?: Promise<void>) =>
    createHttpApp({
      env: parseEnv(settings),
      database,
      // The site's real routes, but no modules: every page answers 500 here.
      loadBuild: async () => ({ routes: appRouteManifest() }) as unknown as ServerBuild,
      ownerReady,
    });

  it("sends HSTS for a year only when the site is served over https", async () => {
    const secure = await app({ NODE_ENV: "production", SITE_URL: "https://example.com" }).request(
      "/healthz",
    );
    expect(secure.headers.get("strict-transport-security")).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(secure.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    const plain = await app({ NODE_ENV: "production", SITE_URL: "http://localhost:3000" }).request(
      "/healthz",
    );
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    expect(plain.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });

  it("gives every response an id of its own, never the client's", async () => {
    const http = app();
    const forged = await http.request("/healthz", { headers: { "X-Request-Id": "forged-id" } });
    const id = forged.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await http.request("/healthz")).headers.get("x-request-id")).not.toBe(id);
  });

  it("holds requests that change something until the owner's password is in place, and no others", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    let passwordSet!: () => void;
    const http = app({}, new Promise<void>((resolve) => (passwordSet = resolve)));
    let answered = false;
    const post = Promise.resolve(
      http.request("/login", {
        method: "POST",
        headers: { "content-type": "text/plain", "content-length": "1" },
        body: "x",
      }),
    ).finally(() => (answered = true));
    // A page is answered meanwhile (500 here: this test has no React Router build).
    expect((await http.request("/blog")).status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    passwordSet();
    expect((await post).status).toBe(415);
  });

  it("loads a bundled build once, and development's live build on every request", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const routes = appRouteManifest();
    let loads = 0;
    const loadBuild = async () => {
      loads += 1;
      return { routes } as unknown as ServerBuild;
    };
    const paths = ["/", "/blog", "/no/such/page"];
    const bundled = createHttpApp({ env: parseEnv({}), database, loadBuild });
    for (const path of paths) await bundled.request(path);
    expect(loads).toBe(1);

    loads = 0;
    const live = createHttpApp({ env: parseEnv({}), database, loadBuild, liveBuild: true });
    for (const path of paths) await live.request(path);
    expect(loads).toBeGreaterThanOrEqual(paths.length);
  });

  /** A server for the app on a free port, and a raw connection to it that keeps what it reads. */
  async function rawConnection() {
    const server = createServer(getRequestListener(app().fetch));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, "127.0.0.1");
    const read = { text: "", closed: false };
    socket.on("data", (chunk: Buffer) => (read.text += chunk.toString("latin1")));
    socket.on("close", () => (read.closed = true));
    /** Resolves once what was read matches `pattern` (or the connection closed). */
    const until = (pattern: RegExp) =>
      vi.waitFor(() => expect(read.closed || pattern.test(read.text)).toBe(true), 5000);
    return { server, socket, read, until };
  }

  const CONTACT_HEAD =
    "POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n" +
    "Content-Type: application/x-www-form-urlencoded\r\n";

  it("refuses a body too large by its stated length at once, reads the rest, and answers the next request on the same connection", async () => {
    const { server, socket, read, until } = await rawConnection();
    try {
      const length = 2 * BODY_LIMITS.form;
      socket.write(`${CONTACT_HEAD}Content-Length: ${length}\r\n\r\nname=a`);
      // The answer comes before the body is all sent: a client still sending reads it, with
      // no reset, since the server goes on reading.
      await until(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\n\{[^}]*\}/);
      expect(read.text).toMatch(/^HTTP\/1\.1 413 /);
      expect(read.text.toLowerCase()).not.toContain("connection: close");
      socket.write("a".repeat(length - "name=a".length));
      socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await until(/HTTP\/1\.1 200 /);
      expect(read.closed).toBe(false);
      expect(read.text.match(/HTTP\/1\.1 \d+/g)).toEqual(["HTTP/1.1 413", "HTTP/1.1 200"]);
    } finally {
      socket.destroy();
      server.close();
    }
  });

  it("closes the connection after refusing a body cut off part way (no stated length)", async () => {
    const { server, socket, read, until } = await rawConnection();
    try {
      const chunk = "a".repeat(64 * 1024);
      socket.write(`${CONTACT_HEAD}Transfer-Encoding: chunked\r\n\r\n`);
      for (let sent = 0; sent <= BODY_LIMITS.form; sent += chunk.length) {
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      }
      await until(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\n/);
      expect(read.text.toLowerCase()).toContain("connection: close");
      await vi.waitFor(() => expect(read.closed).toBe(true), 5000);
    } finally {
      socket.destroy();
      server.close();
    }
  });
});

import { createServer } from "node:http";
import { connect, type AddressInfo } from "node:net";

import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { parseEnv } from "../app/lib/env.server";
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

  it("closes the connection after refusing a body it did not read, so no next request is cut off", async () => {
    const server = createServer(getRequestListener(app().fetch));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, "127.0.0.1");
      let answer = "";
      socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      socket.write(
        "POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n" +
          "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 11000000\r\n\r\n" +
          "name=a",
      );
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain("connection: close");
    } finally {
      server.close();
    }
  });
});

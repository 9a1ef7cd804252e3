import type { ServerBuild } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { parseEnv } from "../../app/lib/env.server";
import { createHttpApp } from "../../server/http";
import { appRouteManifest } from "../app-routes";
import { freshPglite, type TestDatabase } from "./databases";

describe("/healthz on a real database", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshPglite();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await database.dispose();
  });

  const app = () =>
    createHttpApp({
      env: parseEnv({}),
      database,
      // The site's real routes, but no modules: /healthz needs none.
      loadBuild: async () => ({ routes: appRouteManifest() }) as unknown as ServerBuild,
    });

  it("answers /healthz with 200 while the database answers", async () => {
    const response = await app().request("/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers /healthz with 503 when the database does not", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const http = app();
    await database.close();
    const response = await http.request("/healthz");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable" });
  });
});

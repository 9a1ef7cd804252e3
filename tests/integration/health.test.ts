import { Hono } from "hono";
import type { ServerBuild } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { parseEnv } from "../../app/lib/env.server";
import { HEALTH_ANSWER_FRESH_MS } from "../../server/health";
import { createHttpApp } from "../../server/http";
import { healthCheck } from "../../server/middleware/health-check";
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

  describe("answers from the database's last answer while it is fresh", () => {
    /** The real database, its questions counted, on a clock the test moves. */
    function counted() {
      const clock = { now: 0 };
      const pings = { count: 0, answered: 0 };
      const handler = healthCheck(
        {
          ping: async () => {
            pings.count++;
            await database.ping();
            pings.answered++;
          },
        },
        () => clock.now,
      );
      const http = new Hono().get("/healthz", handler);
      return { clock, pings, check: () => http.request("/healthz") };
    }

    it("asks once for many checks, again in the background past half its age", async () => {
      const { clock, pings, check } = counted();
      for (const at of [0, 100, 200, HEALTH_ANSWER_FRESH_MS / 2 - 1]) {
        clock.now = at;
        expect((await check()).status).toBe(200);
      }
      expect(pings.count).toBe(1);
      clock.now = HEALTH_ANSWER_FRESH_MS / 2 + 1;
      expect((await check()).status).toBe(200);
      await vi.waitFor(() => expect(pings.answered).toBe(2));
      // Too old: the check waits for a new answer.
      clock.now = 10 * HEALTH_ANSWER_FRESH_MS;
      expect((await check()).status).toBe(200);
      expect(pings.count).toBe(3);
    });

    it("says 503 once the database stops answering, at most one fresh period late", async () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      const { clock, check } = counted();
      expect((await check()).status).toBe(200);
      await database.close();
      // Within the first half: the last answer stands.
      clock.now = HEALTH_ANSWER_FRESH_MS / 4;
      expect((await check()).status).toBe(200);
      // Past half: still answered, and the question asked in the background fails...
      clock.now = HEALTH_ANSWER_FRESH_MS / 2 + 1;
      expect((await check()).status).toBe(200);
      // ...so the next check asks again, and says so.
      await vi.waitFor(async () => expect((await check()).status).toBe(503));
      expect(await (await check()).json()).toEqual({ status: "unavailable" });
    });
  });
});

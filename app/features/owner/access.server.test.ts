import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";

import { appContext } from "~/context";
import { parseEnv } from "~/lib/env.server";

import type { Database } from "../../../database/db.server";
import { ownerOnly, SIGN_IN_REQUIRED, type GuardedRoute } from "./access.server";

const PAGE: GuardedRoute = { page: true, loader: true, action: false };
const API: GuardedRoute = { page: false, loader: false, action: true, actionMethods: ["POST"] };

/**
 * What the gate does with an anonymous request (no cookie, so no database is asked): the
 * Response or data it throws, or undefined when it lets the request through.
 */
async function gate(route: GuardedRoute, method: string, url: string, pageUrl = url) {
  const context = new RouterContextProvider();
  context.set(appContext, {
    db: undefined as unknown as Database,
    env: parseEnv({}),
    clientAddress: "127.0.0.1",
  });
  const request = new Request(new URL(url, "http://localhost"), { method });
  const args = {
    request,
    url: new URL(pageUrl, "http://localhost"),
    pattern: "",
    params: {},
    context,
  };
  try {
    await ownerOnly(route)(args, async () => new Response());
    return undefined;
  } catch (thrown) {
    return thrown;
  }
}

describe("the owner's gate, for anyone else", () => {
  it("sends a page's reader to sign in and back to the page", async () => {
    for (const method of ["GET", "HEAD"]) {
      const answer = (await gate(PAGE, method, "/admin/posts?page=2")) as Response;
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Fposts%3Fpage%3D2");
    }
  });

  it("brings a client navigation back to its page, not to the page's data", async () => {
    const answer = (await gate(
      PAGE,
      "GET",
      "/admin/posts.data?page=2&_routes=root%2Croutes%2Fadmin.posts",
      "/admin/posts?page=2",
    )) as Response;
    expect(answer.headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Fposts%3Fpage%3D2");
  });

  it("answers a write the route takes with 401 and the reason", async () => {
    expect(await gate(API, "POST", "/api/posts")).toMatchObject({
      data: SIGN_IN_REQUIRED,
      init: { status: 401 },
    });
    expect(await gate({ ...PAGE, action: true }, "PATCH", "/admin/profile")).toMatchObject({
      init: { status: 401 },
    });
  });

  it("leaves to the route what it refuses whoever asks", async () => {
    // A method the action refuses itself (405), a write to a page without an action, and a
    // read of an API without a loader (React Router's own refusals).
    expect(await gate(API, "PATCH", "/api/posts")).toBeUndefined();
    expect(await gate(PAGE, "POST", "/admin/posts")).toBeUndefined();
    expect(await gate(API, "GET", "/api/posts")).toBeUndefined();
  });
});

// Who may use each route (app/route-policy.ts `access`), against the real bundle: every route of
// app/routes.ts, asked for by an anonymous visitor (a page, its client navigation's data, and
// each write its action takes) and by the signed-in owner.
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { policyOf, routePolicies } from "../../app/route-policy";
import { appRouteRecords } from "../app-routes";
import { loadBundle, openSite, TABLES, type Answer, type Site } from "./site";

/**
 * The routes only the signed-in owner may use. Written out, not read from the policy: a route
 * that loses its `access` there must fail here, not change what this test expects.
 */
const OWNER_ONLY = new Set([
  "routes/blog.new",
  "routes/blog.edit",
  "routes/admin.messages",
  "routes/admin.posts",
  "routes/admin.posts.trash",
  "routes/admin.posts-export",
  "routes/admin.profile",
  "routes/admin.profile.photo",
  "routes/admin.profile.cv",
  "routes/admin.profile.experience",
  "routes/admin.profile.education",
  "routes/admin.profile.resume",
  "routes/admin.subscribers",
  "routes/admin.subscribers-csv",
  "routes/admin.social",
  "routes/admin.import",
  "routes/api.posts",
  "routes/api.post",
  "routes/api.post-revisions",
  "routes/api.post-revision",
  "routes/api.post-revision-restore",
  "routes/api.images",
  "routes/api.message-retry",
  "routes/api.post-autosave",
  "routes/api.post-discard",
]);

/** What the owner's gate answers a write (app/features/owner/access.server.ts). */
const SIGN_IN_REQUIRED = { ok: false, error: "Sign in to do this." };
const WRITES = ["POST", "PUT", "PATCH", "DELETE"] as const;
const JSON_BODY = {
  headers: { "content-type": "application/json" },
  body: new TextEncoder().encode("{}"),
};

type Route = {
  id: string;
  /** A path of the route, every parameter `1` (post 1 exists). */
  path: string;
  page: boolean;
  loader: boolean;
  action: boolean;
};

/** The bundle's routes with a path each, as React Router nests them. */
function routesOf(manifest: ServerBuild["routes"]): Route[] {
  const records = Object.values(manifest).filter((route) => route !== undefined);
  const pathOf = (id: string | undefined): string => {
    const record = records.find((r) => r.id === id);
    if (!record) return "";
    const own = (record.path ?? "").replace(/:\w+/g, "1").replace("*", "no-such-page");
    return [pathOf(record.parentId), own].filter(Boolean).join("/");
  };
  return records
    .filter((record) => record.id !== "root")
    .map((record) => ({
      id: record.id,
      path: `/${pathOf(record.id)}`,
      page: record.module.default !== undefined,
      loader: record.module.loader !== undefined,
      action: record.module.action !== undefined,
    }));
}

/** Whether the owner's gate answered: sent to sign in (a page, or its data), or 401. */
function gated(answer: Answer): boolean {
  const location = answer.headers.get("location") ?? answer.text;
  return (
    (answer.status === 401 && answer.text.includes("Sign in to do this.")) ||
    ([202, 302].includes(answer.status) && location.includes("/login?redirectTo="))
  );
}

const signIn = (path: string) => `/login?redirectTo=${encodeURIComponent(path)}`;

describe("who may use each route", () => {
  let site: Site;
  let routes: Route[];

  beforeAll(async () => {
    const { exports } = await loadBundle();
    const manifest = await (
      exports as typeof exports & { routeManifest: () => Promise<ServerBuild["routes"]> }
    ).routeManifest();
    routes = routesOf(manifest);
    site = await openSite("pglite");
    await site.sql(
      "insert into blog_posts (title, description, content) values ('P', 'd', '<p>B</p>')",
    );
  });
  afterAll(() => site.close());

  it("covers every route of app/routes.ts", () => {
    const declared = appRouteRecords()
      .map((record) => record.id)
      .filter((id) => id !== "root" && !id.startsWith("routes/test."));
    expect(routes.map((route) => route.id).sort()).toEqual(declared.sort());
  });

  it("names as owner-only in app/route-policy.ts exactly the owner's routes", () => {
    const owners = Object.keys(routePolicies).filter((id) => policyOf(id)?.access === "owner");
    // Not the test-only routes either: they are in the test build alone, and the end-to-end
    // tests seed and read through them without signing in.
    expect(owners.sort()).toEqual([...OWNER_ONLY].sort());
  });

  it("sends an anonymous reader of an owner page to sign in, refuses an owner API's reads, and lets anyone read the rest", async () => {
    for (const route of routes) {
      const answer = await site.probe(`GET ${route.id} (no session)`, { path: route.path });
      if (OWNER_ONLY.has(route.id) && route.page) {
        expect(answer.status, route.path).toBe(302);
        expect(answer.headers.get("location"), route.path).toBe(signIn(route.path));
      } else if (OWNER_ONLY.has(route.id) && route.loader) {
        expect(answer.status, route.path).toBe(401);
        expect(JSON.parse(answer.text), route.path).toEqual(SIGN_IN_REQUIRED);
      } else {
        expect(gated(answer), `${route.path} answered ${answer.status}`).toBe(false);
      }
      if (!route.page) continue;
      // A client navigation asks for the page's data; it is sent to sign in for the page.
      const data = await site.probe(`GET ${route.id}.data (no session)`, {
        path: route.path === "/" ? "/_.data" : `${route.path}.data`,
      });
      if (OWNER_ONLY.has(route.id)) {
        expect(data.status, `${route.path}.data`).toBe(202);
        expect(data.text, `${route.path}.data`).toContain(`"${signIn(route.path)}"`);
      } else {
        expect(gated(data), `${route.path}.data answered ${data.status}`).toBe(false);
      }
    }
  });

  it("answers an anonymous write to an owner route 401, and leaves the rest to the route", async () => {
    for (const route of routes.filter((r) => r.action)) {
      const taken = policyOf(route.id)?.actionMethods ?? WRITES;
      for (const method of WRITES) {
        const answer = await site.probe(`${method} ${route.id} (no session)`, {
          method,
          path: route.path,
          ...JSON_BODY,
        });
        const where = `${method} ${route.path} answered ${answer.status}`;
        if (!OWNER_ONLY.has(route.id)) expect(gated(answer), where).toBe(false);
        else if (taken.includes(method)) {
          expect(answer.status, where).toBe(401);
          if (!route.page) expect(JSON.parse(answer.text), where).toEqual(SIGN_IN_REQUIRED);
        } else expect(answer.status, `${where}: the action refuses it, whoever asks`).toBe(405);
      }
    }
  });

  it("lets the owner use every owner route", async () => {
    for (const route of routes.filter((r) => OWNER_ONLY.has(r.id))) {
      if (route.page || route.loader) {
        const answer = await site.probe(`GET ${route.id} (owner)`, {
          path: route.path,
          owner: true,
        });
        // An API may not find what its path names (post 1 has no revision 1): it answers.
        if (route.page) expect(answer.status, route.path).toBe(200);
        else expect(gated(answer), `GET ${route.path} answered ${answer.status}`).toBe(false);
      }
      if (!route.action) continue;
      for (const method of policyOf(route.id)?.actionMethods ?? ["POST"]) {
        const answer = await site.probe(`${method} ${route.id} (owner)`, {
          method,
          path: route.path,
          owner: true,
          ...JSON_BODY,
          mayChange: TABLES,
        });
        expect(gated(answer), `${method} ${route.path} answered ${answer.status}`).toBe(false);
      }
    }
  });
});

import { Hono } from "hono";
import { describe, expect, it } from "vitest";

import routes from "../app/routes";
import { routePolicies, type RoutePolicy } from "../app/route-policy";
import { appRouteManifest, appRouteRecords, resolveAppRoute } from "../tests/app-routes";
import { createRouteResolver, RESOLVED_PATHS_KEPT, routing } from "./routing";

describe("route resolution", () => {
  it.each([
    ["/", "routes/home"],
    ["/blog", "routes/blog"],
    ["/blog/new", "routes/blog.new"],
    ["/blog/12", "routes/blog.post"],
    ["/blog/12/edit", "routes/blog.edit"],
    ["/admin/messages", "routes/admin.messages"],
    ["/api/posts/3", "routes/api.post"],
    ["/rss.xml", "routes/rss"],
    ["/_root.data", "routes/home"],
    ["/blog/12.data", "routes/blog.post"],
    ["/blog/new.data", "routes/blog.new"],
    ["/no/such/page", "routes/not-found"],
    ["/assets/app-1234.js", "routes/not-found"],
  ])("%s is %s, as React Router matches it", (path, id) => {
    expect(resolveAppRoute(path).id).toBe(id);
  });

  it.each([
    ["/BLOG/1", "/blog/1"],
    ["/blog/1/", "/blog/1"],
    ["/blog/1//", "/blog/1"],
    ["/blog/%31", "/blog/1"],
    ["/Blog/%31/", "/blog/1"],
    ["/RSS.XML", "/rss.xml"],
    ["/blog/", "/blog"],
    ["/Blog/New", "/blog/new"],
    ["/blog/1/EDIT", "/blog/1/edit"],
    // Parameters keep their case; only the route's own text is canonicalized.
    ["/BLOG/Abc", "/blog/Abc"],
    // React Router's own percent-encoding of a parameter (a slash in it stays encoded).
    ["/blog/caf%c3%a9", "/blog/caf%C3%A9"],
    ["/blog/a%2fb", "/blog/a%2Fb"],
  ])("%s is a non-canonical spelling of %s", (path, canonical) => {
    expect(resolveAppRoute(path).canonical).toBe(canonical);
  });

  it.each(["/", "/blog", "/blog/1", "/rss.xml", "/blog/caf%C3%A9", "/blog/a:b", "/blog.data"])(
    "%s is canonical",
    (path) => {
      expect(resolveAppRoute(path).canonical).toBeNull();
    },
  );

  it("has no canonical spelling for a path no route has", () => {
    expect(resolveAppRoute("/No/Such/").canonical).toBeNull();
  });

  it("answers a path again as it did, once remembered and once forgotten", () => {
    const resolve = createRouteResolver(appRouteRecords());
    const first = resolve("/BLOG/12/");
    expect(resolve("/BLOG/12/")).toEqual(first);
    for (let i = 0; i < RESOLVED_PATHS_KEPT; i++) resolve(`/blog/${i + 100}`);
    expect(resolve("/BLOG/12/")).toEqual(first);
    expect(first).toMatchObject({ id: "routes/blog.post", canonical: "/blog/12" });
    expect(resolve("/no/such/page")).toMatchObject({ id: "routes/not-found", canonical: null });
  });

  it("gives every request the same answer, which no caller can change", () => {
    const resolve = createRouteResolver(appRouteRecords());
    const answer = resolve("/blog/12");
    const [name = ""] = Object.keys(answer.params);
    expect(name).not.toBe("");
    expect(() => {
      (answer.params as Record<string, string>)[name] = "13";
    }).toThrow(TypeError);
    expect(() => {
      (answer as { id: string }).id = "routes/home";
    }).toThrow(TypeError);
    expect(resolve("/blog/12")).toBe(answer);
    expect(answer).toMatchObject({ id: "routes/blog.post", params: { [name]: "12" } });
  });

  it("refuses a build with a route the policy table does not know", () => {
    const records = [...appRouteRecords(), { id: "routes/new-page", parentId: "root", path: "x" }];
    expect(() => createRouteResolver(records)).toThrow(
      "Routes without a policy in app/route-policy.ts: routes/new-page",
    );
  });

  it("refuses an owner-only route a cache could keep, and an open route nested in one", () => {
    const records = [
      { id: "root", path: "" },
      { id: "owner", parentId: "root", path: "owner" },
      { id: "nested", parentId: "owner", path: "nested" },
      { id: "cached", parentId: "root", path: "cached" },
    ];
    const table: Record<string, RoutePolicy> = {
      owner: { cache: "private", access: "owner" },
      nested: { cache: "private" },
      cached: { cache: "public", access: "owner" },
    };
    expect(() => createRouteResolver(records, (id) => table[id])).toThrow(
      "Owner-only routes not private: cached\n" +
        "Routes nested in an owner-only route but not owner-only: nested",
    );
    table.nested = { cache: "private", access: "owner" };
    table.cached = { cache: "private", access: "owner" };
    expect(() => createRouteResolver(records, (id) => table[id])).not.toThrow();
  });

  it("has a policy for every route and no policy for a route that is not there", () => {
    const ids = appRouteRecords()
      .map((record) => record.id)
      .filter((id) => id !== "root");
    const testOnly = Object.keys(routePolicies).filter((id) => id.startsWith("routes/test."));
    const everyRoute = (entries: typeof routes): unknown[] =>
      entries.flatMap((entry) => [entry, ...everyRoute(entry.children ?? [])]);
    expect(ids.length).toBe(everyRoute(routes).length);
    expect(new Set([...ids, ...testOnly])).toEqual(new Set(Object.keys(routePolicies)));
  });
});

describe("routing middleware", () => {
  function site() {
    let renders = 0;
    const app = new Hono();
    app.use(routing(async () => appRouteManifest()));
    app.all("*", (c) => {
      renders++;
      return c.text("page");
    });
    return { app, renders: () => renders };
  }

  it("answers a non-canonical spelling with 301 to the canonical URL, query kept, unrendered", async () => {
    const { app, renders } = site();
    for (const [path, location] of [
      ["/BLOG/1", "/blog/1"],
      ["/blog/1/", "/blog/1"],
      ["/blog/%31", "/blog/1"],
      ["/RSS.XML", "/rss.xml"],
      ["/Blog?page=2&q=go", "/blog?page=2&q=go"],
    ] as const) {
      for (const method of ["GET", "HEAD"]) {
        const response = await app.request(path, { method });
        expect(response.status, `${method} ${path}`).toBe(301);
        expect(response.headers.get("location")).toBe(location);
        expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
      }
    }
    expect(renders()).toBe(0);
  });

  it("sends a spelling straight to where its canonical URL moves, when it moves", async () => {
    const app = new Hono();
    const asked: string[] = [];
    app.use(
      routing(async () => appRouteManifest(), {
        movedTo: async (route) => {
          asked.push(route.canonical!);
          return route.params.slug === "1" ? "/blog/first-post" : null;
        },
      }),
    );
    app.all("*", (c) => c.text("page"));
    for (const [path, location] of [
      ["/BLOG/1?x=1", "/blog/first-post"],
      ["/blog/%31/", "/blog/first-post"],
      ["/BLOG/2?x=1", "/blog/2?x=1"],
      ["/RSS.XML", "/rss.xml"],
    ] as const) {
      const response = await app.request(path);
      expect(response.status, path).toBe(301);
      expect(response.headers.get("location"), path).toBe(location);
    }
    // Canonical spellings are answered without asking.
    expect((await app.request("/blog/1")).status).toBe(200);
    expect(asked).toEqual(["/blog/1", "/blog/1", "/blog/2", "/rss.xml"]);
  });

  it("renders canonical paths, unknown paths and writes as they are", async () => {
    const { app, renders } = site();
    expect((await app.request("/blog/1")).status).toBe(200);
    expect((await app.request("/no/SUCH/")).status).toBe(200);
    // A 301 would turn a form's POST into a GET: the router matches the spelling anyway.
    expect((await app.request("/API/POSTS", { method: "POST" })).status).toBe(200);
    expect(renders()).toBe(3);
  });
});

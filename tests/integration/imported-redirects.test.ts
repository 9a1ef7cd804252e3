import { readFileSync } from "node:fs";

import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { importParsers, runImport } from "../../app/features/import/index.server";
import { importedRedirects } from "../../server/imported-redirects";
import { routing } from "../../server/routing";
import { appRouteManifest } from "../app-routes";
import { drivers, skipReason, type TestDatabase } from "./databases";

// Real exports (tests/fixtures/imports/README.md), imported, then asked for by their old URLs.
const F = "tests/fixtures/imports";

const { parseDevto, parseGhost, parseWordPress } = await importParsers();

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`old URLs of imports on ${driver.name}`, () => {
    let database: TestDatabase;
    let app: Hono;
    beforeEach(async () => {
      database = await driver.fresh();
      await runImport(
        database.db,
        parseWordPress(readFileSync(`${F}/wordpress/theme-unit-test-trimmed.xml`, "utf8")),
        undefined,
        { images: false },
      );
      await runImport(
        database.db,
        parseGhost(readFileSync(`${F}/ghost/v4-export-trimmed.json`, "utf8")),
        undefined,
        { images: false },
      );
      await runImport(
        database.db,
        parseDevto(readFileSync(`${F}/devto/article-api-v1.json`, "utf8")),
        undefined,
        { images: false },
      );
      app = new Hono();
      app.use(routing(async () => appRouteManifest()));
      app.use(importedRedirects(database.db));
      app.all("*", (c) => c.text("page"));
    });
    afterEach(() => database.dispose());

    it("answers 301 to the new post for WordPress's, Ghost's and dev.to's URL forms, GET and HEAD", async () => {
      for (const [path, location] of [
        ["/?p=1732", "/blog/blocks-formatting"],
        ["/2018/11/02/block-category-formatting/", "/blog/blocks-formatting"],
        ["/2018/11/01/blocks-formatting/", "/blog/blocks-formatting"],
        ["/integrations/", "/blog/integrations"],
        ["/integrations", "/blog/integrations"],
        ["/username391/pale-kings-and-princes179-381c", "/blog/pale-kings-and-princes179"],
      ] as const) {
        for (const method of ["GET", "HEAD"]) {
          const response = await app.request(path, { method });
          expect(response.status, `${method} ${path}`).toBe(301);
          expect(response.headers.get("location"), path).toBe(location);
        }
      }
    });

    it("leaves drafts, unknown paths, the home page and the site's own pages alone", async () => {
      for (const path of [
        "/?p=1164",
        "/?p=1",
        "/",
        "/2010/01/01/nothing/",
        "/blog",
        "/blog/draft",
      ]) {
        const response = await app.request(path);
        expect(response.status, path).toBe(200);
      }
      expect((await app.request("/?p=1732", { method: "POST" })).status).toBe(200);
    });
  });
}

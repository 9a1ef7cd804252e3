// Rendered pages as the bundled server sends them with the page cache off (PAGE_CACHE=false, or
// any page it does not keep): the document whole, with its length, compressed in one piece
// (app/entry.server.tsx, server/compress.ts); a data request still streamed.
import { createServer, type Server } from "node:http";
import { gunzipSync, inflateSync } from "node:zlib";

import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freshPglite, type TestDatabase } from "../integration/databases";
import { loadBundle, rawGet, SITE_URL } from "./site";

describe("rendered documents", () => {
  let server: Server;
  let database: TestDatabase;

  beforeAll(async () => {
    const { root, exports } = await loadBundle();
    database = await freshPglite();
    await database.db.execute(
      "insert into blog_posts (title, description, content) values ('Whole', 'd', '<p>Body</p>')",
    );
    const env = exports.parseEnv({ NODE_ENV: "production", DATA_DIR: "unused", SITE_URL });
    const app = exports.createSiteApp({ env, database, root, pageCache: null });
    server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.dispose();
  });

  it.each(["/", "/blog", "/blog/whole", "/no/such/page"])(
    "%s arrives gzip in one piece with its length, not chunked",
    async (path) => {
      const reply = await rawGet(server, path, { "accept-encoding": "gzip, deflate, br" });
      expect(reply.status).toBe(path === "/no/such/page" ? 404 : 200);
      expect(reply.headers["content-encoding"]).toBe("gzip");
      expect(reply.headers["transfer-encoding"]).toBeUndefined();
      expect(reply.headers["content-length"]).toBe(String(reply.body.length));
      expect(reply.headers.vary).toContain("Accept-Encoding");
      const html = gunzipSync(reply.body).toString();
      expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(html.trimEnd().endsWith("</html>")).toBe(true);
    },
  );

  it("sends the same document deflated, or as it is, with the length of what is sent", async () => {
    const plain = await rawGet(server, "/blog/whole");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["content-length"]).toBe(String(plain.body.length));
    const deflated = await rawGet(server, "/blog/whole", { "accept-encoding": "deflate" });
    expect(deflated.headers["content-encoding"]).toBe("deflate");
    expect(deflated.headers["content-length"]).toBe(String(deflated.body.length));
    expect(inflateSync(deflated.body).equals(plain.body)).toBe(true);
  });

  it("streams a data request, compressed, without a length", async () => {
    const reply = await rawGet(server, "/blog.data", { "accept-encoding": "gzip" });
    expect(reply.status).toBe(200);
    expect(reply.headers["content-encoding"]).toBe("gzip");
    expect(reply.headers["content-length"]).toBeUndefined();
    expect(reply.headers["transfer-encoding"]).toBe("chunked");
    expect(gunzipSync(reply.body).toString()).toContain("Whole");
  });
});

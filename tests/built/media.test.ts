// Uploads through the real bundle's node:http server, as `npm run serve` assembles it
// (server/app.ts createSiteServer): the headers a browser sees on /media beside a page's, and
// sockets that ask for the 10 MB CV and never read, closed by the send timeout.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { storeMedia } from "../../app/features/media/store.server";
import { UPLOAD_LIMITS } from "../../app/features/media/uploads";
import type * as ServerApp from "../../server/app";
import { freshPglite, type TestDatabase } from "../integration/databases";
import { loadBundle, rawGet, SITE_URL } from "./site";

/** Short here, so the test waits a second or two rather than a minute. */
const SEND_STALL_MS = 400;
const NON_READING = 20;

/** Per response, or per page: not the site's. */
const PER_RESPONSE = new Set([
  "x-request-id",
  "date",
  "content-length",
  "content-type",
  "cache-control",
  "etag",
  "accept-ranges",
  "connection",
  "keep-alive",
  "vary",
  "content-encoding",
  "link",
  "x-page-cache",
  "content-disposition",
  "content-range",
  "transfer-encoding",
]);

describe("uploads through the built server", () => {
  let server: Server;
  let database: TestDatabase;
  let media: { close(): Promise<void> };
  let dataDir: string;
  let cvUrl: string;
  let cv: Buffer;

  beforeAll(async () => {
    const { root, exports } = await loadBundle();
    const bundle = exports as typeof exports &
      Pick<typeof ServerApp, "PageCache" | "startMediaFiles" | "createSiteServer">;
    database = await freshPglite();
    await database.db.execute(
      "insert into blog_posts (title, description, content) values ('Post', 'd', '<p>Body</p>')",
    );
    // A CV as large as an upload may be.
    cv = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(UPLOAD_LIMITS.cv - 9)]);
    const [stored] = await storeMedia(database.db, "cv", [
      { contentType: "application/pdf", bytes: cv, width: null, height: null },
    ]);
    cvUrl = `/media/${stored!.hash}.pdf`;
    dataDir = mkdtempSync(path.join(os.tmpdir(), "media-built-"));
    const env = bundle.parseEnv({ NODE_ENV: "production", DATA_DIR: dataDir, SITE_URL });
    const pageCache = new bundle.PageCache({ maxBytes: env.pageCacheBytes });
    const app = bundle.createSiteApp({ env, database, root, pageCache });
    const files = await bundle.startMediaFiles({
      database,
      dataDir,
      maxBytes: env.mediaCacheBytes,
      security: { https: false, development: false },
      sendStallMs: SEND_STALL_MS,
    });
    media = files;
    server = bundle.createSiteServer({ app, pageCache, env, media: files.handle });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await media.close();
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends the page's security headers on /media, but Cross-Origin-Resource-Policy: cross-origin", async () => {
    const page = await rawGet(server, "/blog/post");
    expect(page.status).toBe(200);
    expect(page.headers["cross-origin-resource-policy"]).toBe("same-origin");
    const file = await rawGet(server, cvUrl, { range: "bytes=0-99" });
    expect(file.status).toBe(206);
    expect(file.body.equals(cv.subarray(0, 100))).toBe(true);
    expect(file.headers).toMatchObject({
      "cross-origin-resource-policy": "cross-origin",
      "x-content-type-options": "nosniff",
      "cache-control": "public, max-age=31536000, immutable",
      "content-disposition": 'inline; filename="cv.pdf"',
      "content-range": `bytes 0-99/${cv.length}`,
    });
    const site = (headers: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(headers)
          .filter(([name]) => !PER_RESPONSE.has(name))
          .map(([name, value]) => [name, value.replace(/'nonce-[^']+'/, "'nonce-N'")]),
      );
    expect(site(file.headers)).toEqual({
      ...site(page.headers),
      "cross-origin-resource-policy": "cross-origin",
    });
    // Pages keep theirs.
    const home = await rawGet(server, "/");
    expect(home.headers["cross-origin-resource-policy"]).toBe("same-origin");
    const redirected = await rawGet(server, `${cvUrl}?download=1`);
    expect(redirected.status).toBe(301);
    expect(redirected.headers.location).toBe(cvUrl);
  });

  it(`closes ${NON_READING} sockets that ask for the 10 MB CV and never read`, async () => {
    const { port } = server.address() as AddressInfo;
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    const sockets: Socket[] = [];
    for (let i = 0; i < NON_READING; i++) {
      const socket = connect(port, "127.0.0.1");
      socket.on("error", () => {});
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      // Never read: no 'data' listener, and the socket stays paused.
      socket.pause();
      socket.write(`GET ${cvUrl} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      sockets.push(socket);
    }
    try {
      // Theirs, and any keep-alive connection of the test before.
      expect(await connections()).toBeGreaterThanOrEqual(NON_READING);
      // The server closes each once it took nothing for a period (two at most).
      for (let waited = 0; (await connections()) > 0 && waited < 20_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await connections()).toBe(0);
      // The file is still served whole to a client that reads.
      const whole = await rawGet(server, cvUrl);
      expect(whole.status).toBe(200);
      expect(whole.body.equals(cv)).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

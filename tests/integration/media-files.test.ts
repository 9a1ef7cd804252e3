// Uploads served at the listener (server/media/): local copies read through from the database,
// ranges, revalidation, headers, and copies dropped when their rows are deleted, on both
// drivers, through a real node:http server.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";

import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { storeMedia } from "../../app/features/media/store.server";
import type { MediaType } from "../../app/features/media/uploads";
import { openDatabase, type DatabaseHandle } from "../../database/db.server";
import { media as mediaTable } from "../../database/schema";
import { MEDIA_CACHE_DIR, mediaSourceOf, startMediaFiles } from "../../server/media";
import { rawGet } from "../built/site";
import { drivers, freshPostgresUrl, MIGRATIONS, skipReason, type TestDatabase } from "./databases";

const until = async (done: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const EXT: Record<string, string> = { "image/webp": "webp", "application/pdf": "pdf" };

/** Stores `bytes` as an upload would, and returns its URL and hash. */
async function store(db: DatabaseHandle["db"], bytes: Buffer, type: MediaType = "image/webp") {
  const [stored] = await storeMedia(db, type === "application/pdf" ? "cv" : "image", [
    { contentType: type, bytes, width: null, height: null },
  ]);
  return { hash: stored!.hash, url: `/media/${stored!.hash}.${EXT[type]}`, bytes };
}

type Instance = Awaited<ReturnType<typeof startInstance>>;

/** One instance's uploads on `database`, behind a node:http server, counting database reads. */
async function startInstance(
  database: DatabaseHandle,
  { dataDir = mkdtempSync(path.join(os.tmpdir(), "media-")), maxBytes = 64 << 20 } = {},
) {
  const real = mediaSourceOf(database);
  let reads = 0;
  const logged: string[] = [];
  const files = await startMediaFiles({
    database,
    dataDir,
    maxBytes,
    security: { https: false, development: false },
    source: {
      read: (hash) => {
        reads++;
        return real.read(hash);
      },
      infos: real.infos,
    },
    log: (event) => logged.push(event),
  });
  const server = createServer((req, res) => {
    if (!files.handle(req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dir = path.join(dataDir, MEDIA_CACHE_DIR);
  return {
    files,
    server,
    dataDir,
    dir,
    logged,
    reads: () => reads,
    get: (url: string, headers?: Record<string, string | undefined>, method?: string) =>
      rawGet(server, url, headers as Record<string, string> | undefined, method),
    /** The copies under their own names (not those being written). */
    copies: () =>
      readdirSync(dir)
        .filter((name) => /^[0-9a-f]{64}$/.test(name))
        .sort(),
    /** Everything in the folder. */
    listing: () => readdirSync(dir).sort(),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await files.close();
    },
  };
}

const sizes = { image: 200_000, cv: 1_000_000 };

for (const driver of drivers) {
  const reason = skipReason(driver);
  if (reason) console.log(`Uploads at the listener on ${driver.name}: not run (${reason})`);
  describe.skipIf(reason !== null)(`uploads at the listener on ${driver.name}`, () => {
    let database: TestDatabase;
    const instances: Instance[] = [];
    const start = async (options?: Parameters<typeof startInstance>[1]) => {
      const instance = await startInstance(database, options);
      instances.push(instance);
      return instance;
    };
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      for (const instance of instances.splice(0)) await instance.close();
      await database.dispose();
    });

    it("serves a file with the site's headers, CORP cross-origin, immutable, then from its copy", async () => {
      const image = await store(database.db, randomBytes(sizes.image));
      const site = await start();
      for (const round of [1, 2]) {
        const reply = await site.get(image.url);
        expect(reply.status, `round ${round}`).toBe(200);
        expect(reply.body.equals(image.bytes)).toBe(true);
        expect(reply.headers).toMatchObject({
          "content-type": "image/webp",
          "content-length": String(sizes.image),
          "cache-control": "public, max-age=31536000, immutable",
          etag: `"${image.hash}"`,
          "accept-ranges": "bytes",
          "x-content-type-options": "nosniff",
          "cross-origin-resource-policy": "cross-origin",
          "cross-origin-opener-policy": "same-origin",
          "x-frame-options": "DENY",
          "referrer-policy": "strict-origin-when-cross-origin",
        });
        expect(reply.headers["content-security-policy"]).toContain("default-src 'self'");
        expect(reply.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
        expect(reply.headers["content-disposition"]).toBeUndefined();
      }
      // One database read; the copy is the server's alone, under its hash.
      expect(site.reads()).toBe(1);
      await until(() => site.copies().length === 1, "the copy");
      expect(site.copies()).toEqual([image.hash]);
      expect((await site.get(image.url)).body.equals(image.bytes)).toBe(true);
      expect(site.reads()).toBe(1);
      expect(statSync(path.join(site.dir, image.hash)).mode & 0o777).toBe(0o600);
      expect(statSync(site.dir).mode & 0o777).toBe(0o700);
    });

    it("serves the CV inline as cv.pdf", async () => {
      const cv = await store(database.db, randomBytes(sizes.cv), "application/pdf");
      const site = await start();
      const reply = await site.get(cv.url);
      expect(reply.status).toBe(200);
      expect(reply.headers["content-type"]).toBe("application/pdf");
      expect(reply.headers["content-disposition"]).toBe('inline; filename="cv.pdf"');
      expect(reply.body.equals(cv.bytes)).toBe(true);
    });

    // From the bytes just read (a bound of 0 keeps no copy) and from a copy.
    for (const maxBytes of [0, 64 << 20]) {
      it(`answers ranges, If-Range, HEAD and revalidations (${maxBytes ? "from its copy" : "with no copy"})`, async () => {
        const cv = await store(database.db, randomBytes(sizes.cv), "application/pdf");
        const site = await start({ maxBytes });
        await site.get(cv.url);
        const size = sizes.cv;
        const etag = `"${cv.hash}"`;
        const partial: [string, number, number][] = [
          ["bytes=0-9", 0, 9],
          ["bytes=-500", size - 500, size - 1],
          ["bytes=999000-", 999_000, size - 1],
          ["bytes=10-99999999", 10, size - 1],
          [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
          ["bytes=-2000000", 0, size - 1],
        ];
        for (const [range, first, last] of partial) {
          for (const headers of [{ range }, { range, "if-range": etag }]) {
            const reply = await site.get(cv.url, headers);
            expect(reply.status, range).toBe(206);
            expect(reply.headers["content-range"], range).toBe(`bytes ${first}-${last}/${size}`);
            expect(reply.headers["content-length"], range).toBe(String(last - first + 1));
            expect(reply.body.equals(cv.bytes.subarray(first, last + 1)), range).toBe(true);
          }
        }
        for (const range of [`bytes=${size}-`, "bytes=-0", `bytes=${size + 5}-${size + 9}`]) {
          const reply = await site.get(cv.url, { range });
          expect(reply.status, range).toBe(416);
          expect(reply.headers["content-range"], range).toBe(`bytes */${size}`);
        }
        // Whole file: several ranges, another unit, nonsense, or If-Range naming another file.
        for (const headers of [
          { range: "bytes=0-1,5-6" },
          { range: "items=0-9" },
          { range: "bytes=9-1" },
          { range: "bytes=0-9", "if-range": `"${"0".repeat(64)}"` },
          { range: "bytes=0-9", "if-range": `W/${etag}` },
          { range: "bytes=0-9", "if-range": "Wed, 21 Oct 2015 07:28:00 GMT" },
        ]) {
          const reply = await site.get(cv.url, headers);
          expect(reply.status, JSON.stringify(headers)).toBe(200);
          expect(reply.body.equals(cv.bytes)).toBe(true);
        }
        const head = await site.get(cv.url, {}, "HEAD");
        expect(head.status).toBe(200);
        expect(head.headers["content-length"]).toBe(String(size));
        expect(head.body.length).toBe(0);
        for (const ifNoneMatch of [etag, `W/${etag}`, `"${"0".repeat(64)}", ${etag}`, "*"]) {
          for (const method of ["GET", "HEAD"]) {
            const again = await site.get(cv.url, { "if-none-match": ifNoneMatch }, method);
            expect(again.status, ifNoneMatch).toBe(304);
            expect(again.headers.etag).toBe(etag);
            expect(again.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
            expect(again.headers["content-security-policy"]).toBeUndefined();
            expect(again.body.length).toBe(0);
          }
        }
        const changed = await site.get(cv.url, { "if-none-match": `"${"0".repeat(64)}"` });
        expect(changed.status).toBe(200);
        // The copy is written beside the answers, from the first read.
        if (maxBytes) await until(() => site.copies().length === 1, "the copy");
        expect(site.copies()).toEqual(maxBytes ? [cv.hash] : []);
      });
    }

    it("answers 404 to a malformed name, an unknown hash or another type's extension, 405 to a POST", async () => {
      const image = await store(database.db, randomBytes(1000));
      const site = await start();
      const { hash } = image;
      for (const name of [
        "nothing",
        "",
        hash,
        `${hash}.svg`,
        `${hash}.html`,
        `${hash}.webp.html`,
        `${hash.toUpperCase()}.webp`,
        `${hash.slice(0, 63)}.webp`,
        `${"0".repeat(64)}.webp`,
        `${hash}.jpg`,
        `${hash}.pdf`,
        `${hash}.webp/`,
        `%2e%2e/${hash}.webp`,
      ]) {
        for (const headers of [{}, { "if-none-match": "*" }]) {
          const reply = await site.get(`/media/${name}`, headers);
          expect(reply.status, name).toBe(404);
          expect(reply.headers["cache-control"], name).toBeUndefined();
          expect(reply.headers["x-content-type-options"], name).toBe("nosniff");
        }
      }
      const post = await site.get(image.url, {}, "POST");
      expect(post.status).toBe(405);
      expect(post.headers.allow).toBe("GET, HEAD");
      expect((await site.get(image.url)).status).toBe(200);
      expect((await site.get("/elsewhere")).status).toBe(418);
    });

    it("redirects a query string to the file's one URL without reading the database", async () => {
      const image = await store(database.db, randomBytes(1000));
      const site = await start();
      for (const query of ["?v=1", "?utm_source=x&v=2", "?"]) {
        const reply = await site.get(`${image.url}${query}`);
        expect(reply.status, query).toBe(301);
        expect(reply.headers.location).toBe(image.url);
        expect(reply.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      }
      expect((await site.get(`/media/${"0".repeat(64)}.webp?x=1`)).status).toBe(301);
      expect((await site.get("/media/nothing?x=1")).status).toBe(404);
      expect(site.reads()).toBe(0);
    });

    it("shares one database read among concurrent misses", async () => {
      const cv = await store(database.db, randomBytes(sizes.cv), "application/pdf");
      const site = await start();
      const replies = await Promise.all(Array.from({ length: 20 }, () => site.get(cv.url)));
      for (const reply of replies) {
        expect(reply.status).toBe(200);
        expect(reply.body.equals(cv.bytes)).toBe(true);
      }
      expect(site.reads()).toBe(1);
      await until(() => site.copies().length === 1, "the copy");
      await site.get(cv.url);
      expect(site.reads()).toBe(1);
    });

    it("drops the copy when the row is deleted, whatever deletes it, and answers 404", async () => {
      const image = await store(database.db, randomBytes(sizes.image));
      const site = await start();
      expect((await site.get(image.url)).status).toBe(200);
      await until(() => site.copies().length === 1, "the copy");
      await database.db.delete(mediaTable).where(eq(mediaTable.hash, image.hash));
      await until(() => site.copies().length === 0, "the copy to go");
      expect((await site.get(image.url)).status).toBe(404);
      expect(site.files.cache.size).toEqual({ files: 0, bytes: 0 });
    });

    it("keeps at most its bound of copies, dropping the least recently used", async () => {
      const [a, b, c] = [
        await store(database.db, randomBytes(1000)),
        await store(database.db, randomBytes(1000)),
        await store(database.db, randomBytes(1000)),
      ];
      const site = await start({ maxBytes: 2500 });
      for (const file of [a, b, a, c]) {
        expect((await site.get(file.url)).body.equals(file.bytes)).toBe(true);
        await until(() => site.copies().includes(file.hash), "the copy");
      }
      expect(site.copies()).toEqual([a.hash, c.hash].sort());
      expect(site.files.cache.size).toEqual({ files: 2, bytes: 2000 });
      // Larger than the bound: served, never kept.
      const big = await store(database.db, randomBytes(3000));
      expect((await site.get(big.url)).body.equals(big.bytes)).toBe(true);
      expect(site.copies()).not.toContain(big.hash);
    });

    it("at start keeps only the copies whose rows exist, and removes half-written files", async () => {
      const [kept, gone] = [
        await store(database.db, randomBytes(1000)),
        await store(database.db, randomBytes(1000)),
      ];
      const first = await start();
      await first.get(kept.url);
      await first.get(gone.url);
      await until(() => first.copies().length === 2, "the copies");
      await first.close();
      instances.splice(instances.indexOf(first), 1);
      // While no instance listens (a restore, say), a row goes; a write was interrupted.
      await database.db.delete(mediaTable).where(eq(mediaTable.hash, gone.hash));
      writeFileSync(path.join(first.dir, `${kept.hash}.abc.tmp`), "half");
      writeFileSync(path.join(first.dir, "f".repeat(64)), "no row");

      const second = await start({ dataDir: first.dataDir });
      expect(second.copies()).toEqual([kept.hash]);
      expect((await second.get(kept.url)).body.equals(kept.bytes)).toBe(true);
      expect(second.reads()).toBe(0);
      expect((await second.get(gone.url)).status).toBe(404);
    });

    it("checks every copy again when notices may have been missed", async () => {
      const [kept, gone] = [
        await store(database.db, randomBytes(1000)),
        await store(database.db, randomBytes(1000)),
      ];
      const site = await start();
      await site.get(kept.url);
      await site.get(gone.url);
      await until(() => site.copies().length === 2, "the copies");
      // Deaf for a while, as a PostgreSQL listener that lost its connection.
      await site.files.close();
      await database.db.delete(mediaTable).where(eq(mediaTable.hash, gone.hash));
      expect(site.copies()).toHaveLength(2);
      await site.files.cache.verify();
      expect(site.copies()).toEqual([kept.hash]);
      expect((await site.get(gone.url)).status).toBe(404);
    });

    it("still serves files when no copy can be written, logs it once, and leaves nothing", async () => {
      const files = [
        await store(database.db, randomBytes(1000)),
        await store(database.db, randomBytes(1000)),
      ];
      const site = await start();
      // The folder becomes a file: every write of a copy fails.
      rmSync(site.dir, { recursive: true });
      writeFileSync(site.dir, "");
      for (const file of [...files, ...files]) {
        const reply = await site.get(file.url);
        expect(reply.status).toBe(200);
        expect(reply.body.equals(file.bytes)).toBe(true);
      }
      await until(() => site.files.cache.size.bytes === 0, "every write to end");
      expect(site.logged).toEqual(["media_copy_not_written"]);
      expect(site.files.cache.size).toEqual({ files: 0, bytes: 0 });
    });
  });
}

/** A small filesystem that fills up: root may mount one; elsewhere this is said and left. */
const mountSmallDisk = (at: string) =>
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", at], { stdio: "ignore" });
const canMount = (() => {
  const at = mkdtempSync(path.join(os.tmpdir(), "media-full-"));
  try {
    mountSmallDisk(at);
    execFileSync("umount", [at]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(at, { recursive: true, force: true });
  }
})();
if (!canMount) console.log("Uploads on a full disk: not run (no tmpfs can be mounted here)");
if (canMount) {
  describe("uploads on a full disk", () => {
    let database: TestDatabase;
    let fullDisk: string;
    beforeEach(async () => {
      database = await drivers[0]!.fresh();
      fullDisk = mkdtempSync(path.join(os.tmpdir(), "media-full-"));
      mountSmallDisk(fullDisk);
    });
    afterEach(async () => {
      await database.dispose();
      // Lazily: a failed test may have left a file open there.
      execFileSync("umount", ["-l", fullDisk]);
      rmSync(fullDisk, { recursive: true, force: true });
    });

    it("serves the file from the bytes read, and no half-written copy remains", async () => {
      const cv = await store(database.db, randomBytes(sizes.cv), "application/pdf");
      const small = await store(database.db, randomBytes(1000));
      const site = await startInstance(database, { dataDir: fullDisk });
      try {
        for (const round of [1, 2]) {
          const reply = await site.get(cv.url);
          expect(reply.status, `round ${round}`).toBe(200);
          expect(reply.body.equals(cv.bytes)).toBe(true);
        }
        await until(() => site.logged.length > 0, "the log");
        expect(site.logged).toEqual(["media_copy_not_written"]);
        await until(() => site.listing().length === 0, "nothing left");
        // What fits is still kept.
        expect((await site.get(small.url)).status).toBe(200);
        await until(() => site.listing().join() === small.hash, "the small copy alone");
      } finally {
        await site.close();
      }
    });
  });
}

describe.skipIf(skipReason(drivers[1]!) !== null)("uploads across instances on postgres", () => {
  it("a row deleted through one instance is dropped by another's copies, and 404s on both", async () => {
    const { url, drop } = await freshPostgresUrl();
    const handles = [
      await openDatabase({ databaseUrl: url, dataDir: "" }),
      await openDatabase({ databaseUrl: url, dataDir: "" }),
    ];
    await handles[0]!.migrate(MIGRATIONS);
    const sites = [await startInstance(handles[0]!), await startInstance(handles[1]!)];
    try {
      const image = await store(handles[0]!.db, randomBytes(sizes.image));
      for (const site of sites) expect((await site.get(image.url)).status).toBe(200);
      for (const site of sites) await until(() => site.copies().length === 1, "the copies");
      await handles[0]!.db.delete(mediaTable).where(eq(mediaTable.hash, image.hash));
      for (const site of sites) await until(() => site.copies().length === 0, "the copy to go");
      for (const site of sites) expect((await site.get(image.url)).status).toBe(404);
      expect(existsSync(sites[1]!.dir)).toBe(true);
    } finally {
      for (const site of sites) await site.close();
      for (const handle of handles) await handle.close();
      await drop();
    }
  });
});

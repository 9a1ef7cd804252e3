import { createHash, randomBytes } from "node:crypto";
import path from "node:path";

import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { uploadImage as editorUpload } from "../../app/features/posts/editor/image-upload";
import { STORAGE_FAULT_TEXT } from "../../app/lib/storage-faults.server";
import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from "../tmpfs";
import {
  freshPostgres,
  OWNER_PASSWORD,
  sleep,
  startServer,
  tail,
  TEST_DATABASE_URL,
  type PostgresDatabase,
  type ServerProcess,
} from "./harness";
import { DatabaseProxy } from "./proxy";

/**
 * Uploads when storage fails (app/lib/storage-faults.server.ts), against the built server: the
 * database cut in the middle of a CV's and a post image's upload, and the embedded database's
 * disk full. The owner gets a plain 503/507 within seconds (never a 500, never a hang), nothing
 * is half-stored (no file without the profile's reference, no profile pointing at a missing
 * file), and the same upload succeeds once the database or the room is back.
 */
const CUT_PORT = 4811;
const DISK_PORT = 4812;
/** An answer slower than this counts as hung. */
const HANG_MS = 20_000;
const MB = 1024 * 1024;

/** A 10 MB PDF (the CV limit's size) of bytes that do not compress. */
const cvPdf = () => Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(10 * 1000 ** 2 - 9)]);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function signIn(base: string) {
  const response = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ password: OWNER_PASSWORD }),
    redirect: "manual",
  });
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0]!;
  expect(cookie, `sign-in answered ${response.status}`).toMatch(/^session=./);
  return cookie;
}

type Answer = { status: number; text: string; ms: number };

/** POSTs a form as the owner, timed; a hang or a dropped connection fails the test. */
async function post(base: string, cookie: string, route: string, form: FormData): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${base}${route}`, {
    method: "POST",
    body: form,
    headers: { cookie },
    signal: AbortSignal.timeout(HANG_MS),
  });
  return { status: response.status, text: await response.text(), ms: performance.now() - started };
}

/** The CV form as the editor's fetcher sends it (a single-fetch `.data` request). */
const uploadCv = (base: string, cookie: string, pdf: Buffer) => {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("file", new File([new Uint8Array(pdf)], "cv.pdf", { type: "application/pdf" }));
  return post(base, cookie, "/admin/profile/cv.data", form);
};

/** A post's image as the editor sends it (POST /api/images). */
const uploadImage = (base: string, cookie: string, png: Buffer) => {
  const form = new FormData();
  form.set("image", new File([new Uint8Array(png)], "image.png", { type: "image/png" }));
  return post(base, cookie, "/api/images", form);
};

/** A 1600 × 1000 PNG of noise (every width is made of it, so processing takes a while). */
const noisePng = () =>
  sharp(randomBytes(1600 * 1000 * 3), { raw: { width: 1600, height: 1000, channels: 3 } })
    .png()
    .toBuffer();

/** Waits until /healthz and a page answer 200 (pages follow the server's own recheck). */
async function waitForRecovery(base: string, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  const ok = async (path: string) =>
    (await fetch(`${base}${path}`).catch(() => null))?.status === 200;
  while (performance.now() < deadline) {
    if ((await ok("/healthz")) && (await ok("/blog"))) return;
    await sleep(100);
  }
  throw new Error(`/healthz and /blog did not answer 200 within ${timeoutMs} ms`);
}

const target = (() => {
  const url = new URL(TEST_DATABASE_URL ?? "postgres://127.0.0.1:5432/postgres");
  return { host: url.hostname || "127.0.0.1", port: Number(url.port || 5432) };
})();

if (!TEST_DATABASE_URL) {
  console.log(
    "Skipped: uploads during a database cut need PostgreSQL; TEST_DATABASE_URL is not set",
  );
} else {
  describe("uploads while the database is cut (PostgreSQL behind a proxy)", () => {
    let database: PostgresDatabase;
    beforeAll(async () => {
      database = await freshPostgres("load_upload_faults");
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("a CV and a post image in flight get a plain 503, nothing is half-stored, and the same uploads succeed once it is back", async () => {
      const proxy = new DatabaseProxy(target, (line) => console.log(line));
      await proxy.open();
      const url = new URL(database.url);
      url.port = String(proxy.port);
      url.hostname = "127.0.0.1";
      let server: ServerProcess | undefined;
      try {
        server = await startServer(CUT_PORT, { DATABASE_URL: url.toString() });
        const { base } = server;
        const cookie = await signIn(base);
        const first = cvPdf();
        expect((await uploadCv(base, cookie, first)).status).toBe(200);
        const profileCv = async () =>
          (
            await database.query<{ hash: string | null }>("select cv->>'hash' as hash from profile")
          )[0]?.hash;
        const cvRows = async () =>
          (
            await database.query<{ hash: string }>(
              "select hash from media where purpose = 'cv' order by hash",
            )
          ).map((r) => r.hash);
        const imageRows = async () =>
          Number(
            (
              await database.query<{ n: string }>(
                "select count(*) as n from media where purpose = 'image'",
              )
            )[0]!.n,
          );
        expect(await profileCv()).toBe(sha256(first));

        const second = cvPdf();
        const png = await noisePng();
        const sentBefore = proxy.bytesUp;
        const cv = uploadCv(base, cookie, second);
        const image = uploadImage(base, cookie, png);
        // Cut once the CV's insert is on its way to the database (or after 5 s).
        const deadline = performance.now() + 5000;
        while (proxy.bytesUp - sentBefore < 2 * MB && performance.now() < deadline) await sleep(5);
        const inFlight = proxy.bytesUp - sentBefore;
        await proxy.cut();
        const [cvAnswer, imageAnswer] = await Promise.all([cv, image]);
        console.log(
          `database cut with ${(inFlight / MB).toFixed(1)} MB of the uploads sent to it: ` +
            `CV ${cvAnswer.status} in ${Math.round(cvAnswer.ms)} ms, image ${imageAnswer.status} in ${Math.round(imageAnswer.ms)} ms`,
        );
        expect(
          inFlight,
          "the CV's insert had reached the database when it was cut",
        ).toBeGreaterThan(2 * MB);
        expect(cvAnswer.status, cvAnswer.text.slice(0, 500)).toBe(503);
        expect(cvAnswer.text).toContain(STORAGE_FAULT_TEXT.databaseUnavailable);
        expect(imageAnswer.status, imageAnswer.text.slice(0, 500)).toBe(503);
        expect(JSON.parse(imageAnswer.text)).toEqual({
          ok: false,
          error: STORAGE_FAULT_TEXT.databaseUnavailable,
        });
        expect(server.output(), "a stack in the server's output").not.toMatch(/\n\s+at /);
        // What the owner reads: the CV form shows the action's message (data, not the error
        // page), and the editor shows the image API's error text.
        expect(cvAnswer.text).not.toContain("ErrorResponse");
        vi.stubGlobal("fetch", async () => new Response(imageAnswer.text, { status: 503 }));
        try {
          expect(await editorUpload(new File([new Uint8Array(png)], "image.png"))).toEqual({
            ok: false,
            error: STORAGE_FAULT_TEXT.databaseUnavailable,
          });
        } finally {
          vi.unstubAllGlobals();
        }

        await proxy.open();
        await waitForRecovery(base, 10_000);
        // The profile still points at the first CV, which is there; the second left no row.
        expect(await profileCv()).toBe(sha256(first));
        expect(await cvRows()).toEqual([sha256(first)]);
        const imagesAfterCut = await imageRows();

        const cvAgain = await uploadCv(base, cookie, second);
        expect(cvAgain.status, cvAgain.text.slice(0, 500)).toBe(200);
        expect(cvAgain.text).toContain("CV uploaded.");
        expect(await profileCv()).toBe(sha256(second));
        expect(await cvRows()).toEqual([sha256(second)]);
        const served = await fetch(`${base}/media/${sha256(second)}.pdf`);
        expect(served.status).toBe(200);
        expect(Buffer.from(await served.arrayBuffer()).equals(second)).toBe(true);

        const imageAgain = await uploadImage(base, cookie, png);
        expect(imageAgain.status, imageAgain.text.slice(0, 500)).toBe(201);
        // The image's files are stored in one statement: all of them or none were kept by the cut.
        expect([0, await imageRows()]).toContain(imagesAfterCut);
        expect(await imageRows()).toBeGreaterThan(0);
        expect(server.child.exitCode, tail(server)).toBeNull();
      } finally {
        if (process.env.DEBUG_UPLOAD_FAULTS && server) console.log(tail(server, 80));
        await server?.stop();
        await proxy.close();
      }
    }, 120_000);
  });
}

if (tmpfsUnavailable("the embedded database's full-disk test") === null) {
  describe("uploads when the embedded database's disk is full", () => {
    let mount: Tmpfs;
    beforeAll(() => {
      mount = mountTmpfs(512 * MB);
    });
    afterAll(() => mount?.unmount());

    it("a 10 MB CV and a post image get a plain 507, the site keeps serving, and the upload succeeds once there is room", async () => {
      const server = await startServer(DISK_PORT, { DATA_DIR: path.join(mount.dir, "data") });
      try {
        const { base } = server;
        const cookie = await signIn(base);
        const cvLink = async () =>
          /href="(\/media\/[0-9a-f]{64}\.pdf)"/.exec(await (await fetch(`${base}/`)).text())?.[1] ??
          null;
        const before = await cvLink();
        // Room for the database, not for a 10 MB CV.
        mount.resize(512 * MB - mount.free() + 20 * MB);
        const pdf = cvPdf();
        const cv = await uploadCv(base, cookie, pdf);
        const image = await uploadImage(base, cookie, await noisePng());
        console.log(
          `embedded database with 20 MB free: CV ${cv.status} in ${Math.round(cv.ms)} ms, image ${image.status} in ${Math.round(image.ms)} ms`,
        );
        expect(cv.status, cv.text.slice(0, 500)).toBe(507);
        expect(cv.text).toContain(STORAGE_FAULT_TEXT.diskFull);
        expect(image.status, image.text.slice(0, 500)).toBe(507);
        expect(JSON.parse(image.text)).toEqual({ ok: false, error: STORAGE_FAULT_TEXT.diskFull });
        // The site keeps serving, and the CV it links is the one before.
        expect((await fetch(`${base}/healthz`)).status).toBe(200);
        expect((await fetch(`${base}/blog`)).status).toBe(200);
        expect(await cvLink()).toBe(before);

        mount.resize(512 * MB);
        const again = await uploadCv(base, cookie, pdf);
        expect(again.status, again.text.slice(0, 500)).toBe(200);
        expect(await cvLink()).toBe(`/media/${sha256(pdf)}.pdf`);
        expect(server.child.exitCode, tail(server)).toBeNull();
      } finally {
        await server.stop();
      }
    }, 120_000);
  });
}

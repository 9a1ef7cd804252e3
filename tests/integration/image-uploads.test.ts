import sharp from "sharp";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  IMAGE_FIELD,
  PROCESSING_MAX_WAITING,
  PROCESSING_RETRY_MS,
  UPLOAD_TEXT,
  type PostImage,
} from "../../app/features/media/uploads";
import { readMedia } from "../../app/features/media/store.server";
import type { Route } from "../../app/routes/+types/api.images";
import { action } from "../../app/routes/api.images";
import { drivers, queryRows, routeContext, skipReason, type TestDatabase } from "./databases";

// POST /api/images through its action, as the server calls it once the owner is checked:
// uploads at once take turns in the image queue and each is stored whole, or is told the server
// is busy with nothing stored.

type Answer = { ok: true; image: PostImage } | { ok: false; error: string };

/** What the action answers: its status, its Retry-After, and its JSON. */
async function upload(database: TestDatabase, bytes: Uint8Array) {
  const form = new FormData();
  form.append(IMAGE_FIELD, new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "photo.jpg");
  const request = new Request("http://localhost/api/images", { method: "POST", body: form });
  const result = (await action({
    request,
    context: routeContext(database),
    params: {},
  } as unknown as Route.ActionArgs)) as unknown as {
    data: Answer;
    init: { status?: number; headers?: Record<string, string> } | null;
  };
  return {
    status: result.init?.status ?? 200,
    retryAfter: result.init?.headers?.["Retry-After"] ?? null,
    answer: result.data,
  };
}

const mediaRows = async (database: TestDatabase) =>
  (await queryRows<{ n: number }>(database.db, "select count(*)::int as n from media"))[0]!.n;

/** A JPEG of one colour: two that differ give files that differ. */
const picture = (width: number, height: number, r: number) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 90, b: 40 } } })
    .jpeg()
    .toBuffer();

let first: Buffer;
let second: Buffer;
let large: Buffer;
beforeAll(async () => {
  first = await picture(1300, 900, 200);
  second = await picture(900, 700, 30);
  // Large enough that the first is still being encoded when the last has been checked.
  large = await picture(3000, 2000, 120);
});

for (const driver of drivers) {
  const reason = skipReason(driver);
  if (reason !== null) {
    console.log(`image uploads on ${driver.name}: not run (${reason})`);
    continue;
  }
  describe(`image uploads on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("two at once are both processed, one after the other, and both stored", async () => {
      const [a, b] = await Promise.all([upload(database, first), upload(database, second)]);
      expect([a.status, b.status]).toEqual([201, 201]);
      if (!a.answer.ok || !b.answer.ok) throw new Error("refused");
      expect([a.answer.image.width, b.answer.image.width]).toEqual([1300, 900]);
      // 480, 800, 1200, 1300 WebP + JPEG; 480, 800, 900 WebP + JPEG.
      expect(await mediaRows(database)).toBe(9);
      for (const { image } of [a.answer, b.answer]) {
        const urls = [image.src, ...image.srcset.split(", ").map((c) => c.split(" ")[0]!)];
        for (const url of urls) {
          const hash = url.slice("/media/".length, "/media/".length + 64);
          expect(await readMedia(database.db, hash), url).toBeDefined();
        }
      }
    });

    it("past the waiting places, answers 503 with Retry-After and stores nothing for it", async () => {
      const count = PROCESSING_MAX_WAITING + 2;
      // Each its own bytes (a copy), as each request brings its own.
      const answers = await Promise.all(
        Array.from({ length: count }, () => upload(database, Buffer.from(large))),
      );
      const busy = answers.filter((a) => a.status === 503);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1 + PROCESSING_MAX_WAITING);
      expect(busy).toEqual([
        {
          status: 503,
          retryAfter: String(PROCESSING_RETRY_MS / 1000),
          answer: { ok: false, error: UPLOAD_TEXT.busy },
        },
      ]);
      // The same file each time: its five files are stored once.
      expect(await mediaRows(database)).toBe(5);
      // Once the queue is free, the same upload goes through.
      expect((await upload(database, large)).status).toBe(201);
    });
  });
}

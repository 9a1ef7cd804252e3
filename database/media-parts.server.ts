/**
 * A stored file's bytes as rows of `media_parts` (MEDIA_PART_BYTES each, numbered from 0),
 * written and read a part per statement: on the embedded database, which runs one query at a
 * time, every other query (the health check's, a page's) waits for one part at most, never for
 * a whole file (docs/decisions/034-media-parts.md). The embedded database answers without
 * waiting for any I/O, so a loop of its statements would run on promise callbacks alone and keep
 * requests out all the same: each part waits for the event loop's next turn first. Used by the uploads' store
 * (app/features/media/store.server.ts) and by backups (./backup.server.ts).
 */
import { setImmediate as nextTurn } from "node:timers/promises";

import { and, eq, gte, lt, sql } from "drizzle-orm";

import type { Database } from "./db.server";
import { MEDIA_PART_BYTES, mediaParts } from "./schema";

/** Parts read by one statement: a part's worth, so a read holds the database as briefly. */
export const MEDIA_PARTS_PER_READ = 1;

/** How many parts a file of `size` bytes has. */
export const partCount = (size: number) => Math.ceil(size / MEDIA_PART_BYTES);

/**
 * Writes the parts of `bytes` under `hash`, one INSERT each (so never inside a transaction of
 * the caller's, which would hold the embedded database for the whole file). A part already
 * there (the same bytes, under their hash) is kept, its time renewed: the orphan purge only
 * deletes parts no row owns that have not been written for an hour.
 */
export async function writeMediaParts(
  db: Pick<Database, "insert">,
  hash: string,
  bytes: Uint8Array,
) {
  const whole = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let seq = 0; seq < partCount(whole.byteLength); seq++) {
    const part = whole.subarray(seq * MEDIA_PART_BYTES, (seq + 1) * MEDIA_PART_BYTES);
    await nextTurn();
    await db
      .insert(mediaParts)
      .values({ hash, seq, bytes: part })
      .onConflictDoUpdate({
        target: [mediaParts.hash, mediaParts.seq],
        set: { createdAt: sql`now()` },
      });
  }
}

/**
 * The file's `size` bytes, read MEDIA_PARTS_PER_READ parts per statement and put together.
 * Throws when a part is missing or of the wrong length (a file is never served cut short).
 */
export async function readMediaParts(
  db: Pick<Database, "select">,
  hash: string,
  size: number,
): Promise<Buffer> {
  const whole = Buffer.allocUnsafe(size);
  const count = partCount(size);
  for (let first = 0; first < count; first += MEDIA_PARTS_PER_READ) {
    await nextTurn();
    const parts = await db
      .select({ seq: mediaParts.seq, bytes: mediaParts.bytes })
      .from(mediaParts)
      .where(
        and(
          eq(mediaParts.hash, hash),
          gte(mediaParts.seq, first),
          lt(mediaParts.seq, first + MEDIA_PARTS_PER_READ),
        ),
      )
      .orderBy(mediaParts.seq);
    const expected = Math.min(MEDIA_PARTS_PER_READ, count - first);
    if (parts.length !== expected) {
      throw new Error(`The stored file ${hash} lacks parts from ${first} (of ${count}).`);
    }
    for (const { seq, bytes } of parts) {
      const at = seq * MEDIA_PART_BYTES;
      const length = Math.min(MEDIA_PART_BYTES, size - at);
      if (bytes.byteLength !== length) {
        throw new Error(`The stored file ${hash} has a part ${seq} of a wrong length.`);
      }
      whole.set(bytes, at);
    }
  }
  return whole;
}

/**
 * Deletes the parts under `hashes` that no `media` row owns: what an upload that failed after
 * writing them left. Parts of a stored file stay.
 */
export async function deleteUnownedParts(db: Pick<Database, "execute">, hashes: string[]) {
  if (hashes.length === 0) return;
  await db.execute(sql`delete from media_parts p
    where p.hash = any(string_to_array(${hashes.join(" ")}, ' '))
      and not exists (select 1 from media m where m.hash = p.hash)`);
}

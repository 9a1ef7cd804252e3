/**
 * The `media` table: uploaded files kept in the database, so every instance serves the same
 * files, at /media/{sha256}.{ext} (server/media/). What reaches it has passed
 * ./processing.server.ts.
 */

import { createHash } from "node:crypto";

import { eq, inArray } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { media } from "../../../database/schema";
import type { ProcessedFile } from "./processing.server";
import type { UploadKind } from "./uploads";

/**
 * The channel a deleted media row's hash is announced on (a trigger, database/migrations/0010):
 * instances that keep local copies of files drop them on it.
 */
export const MEDIA_DELETED_CHANNEL = "media_deleted";

/** A stored file as the profile refers to it (the bytes stay in the table). */
export type StoredMedia = Omit<ProcessedFile, "bytes"> & { hash: string; size: number };

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Keeps processed files under their content's SHA-256 (hashed here, so a row's key always
 * matches its bytes): the same bytes are stored once, however often they are uploaded.
 * Returns what the profile refers to them by, in the order given.
 */
export async function storeMedia(
  db: Database,
  purpose: UploadKind,
  files: ProcessedFile[],
): Promise<StoredMedia[]> {
  const rows = files.map((file) => ({
    ...file,
    hash: sha256(file.bytes),
    size: file.bytes.byteLength,
    purpose,
  }));
  if (rows.length > 0)
    await db.insert(media).values(rows).onConflictDoNothing({ target: media.hash });
  return rows.map(({ hash, contentType, size, width, height }) => ({
    hash,
    contentType,
    size,
    width,
    height,
  }));
}

/** A stored file with its bytes, or undefined. */
export async function readMedia(db: Database, hash: string) {
  const [row] = await db.select().from(media).where(eq(media.hash, hash)).limit(1);
  return row;
}

/** A stored file without its bytes (enough to answer a revalidation), or undefined. */
export async function readMediaInfo(db: Database, hash: string) {
  const [row] = await db
    .select({ hash: media.hash, contentType: media.contentType, size: media.size })
    .from(media)
    .where(eq(media.hash, hash))
    .limit(1);
  return row;
}

/** Which of `hashes` are stored, without their bytes (local copies are checked against it). */
export async function readMediaInfos(db: Database, hashes: readonly string[]) {
  if (hashes.length === 0) return [];
  return db
    .select({ hash: media.hash, contentType: media.contentType, size: media.size })
    .from(media)
    .where(inArray(media.hash, [...hashes]));
}

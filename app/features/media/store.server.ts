/**
 * The `media` table: uploaded files kept in the database, so every instance serves the same
 * files, at /media/{sha256}.{ext} (server/media/). What reaches it has passed
 * ./processing.server.ts. A file's bytes are written in parts before its row, outside the
 * transaction that writes the row (docs/decisions/034-media-parts.md).
 */

import { createHash } from "node:crypto";

import { eq, inArray, sql } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import {
  deleteUnownedParts,
  partCount,
  readMediaParts,
  writeMediaParts,
} from "../../../database/media-parts.server";
import { media } from "../../../database/schema";
import { errorMessage, logEvent } from "~/lib/log.server";
import type { ProcessedFile } from "./processing.server";
import type { UploadKind } from "./uploads";

/**
 * The channel a deleted media row's hash is announced on (a trigger, database/migrations/0010):
 * instances that keep local copies of files drop them on it.
 */
export const MEDIA_DELETED_CHANNEL = "media_deleted";

/** What a file is for: an upload's kind, or a share card the site drew (app/features/cards). */
export type MediaPurpose = UploadKind | "card";

/** A stored file as the profile refers to it (the bytes stay in the database). */
export type StoredMedia = Omit<ProcessedFile, "bytes"> & { hash: string; size: number };

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Files whose bytes are in the database (`media_parts`) but not yet their rows: what
 * `commitMedia` makes stored. `written` are the hashes whose parts this upload wrote.
 */
export type StagedMedia = {
  files: (StoredMedia & { parts: number })[];
  written: string[];
};

/**
 * Writes the parts of the files not stored yet, a statement per part and outside any
 * transaction, so other queries run between them. Files are keyed by their content's SHA-256
 * (hashed here, so a row's key always matches its bytes): the same bytes are stored once,
 * however often they are uploaded. A failure removes the parts written so far.
 */
export async function stageMedia(db: Database, files: ProcessedFile[]): Promise<StagedMedia> {
  const staged: StagedMedia = {
    files: files.map(({ bytes, contentType, width, height }) => ({
      hash: sha256(bytes),
      contentType,
      size: bytes.byteLength,
      width,
      height,
      parts: partCount(bytes.byteLength),
    })),
    written: [],
  };
  const stored = new Set(
    (
      await readMediaInfos(
        db,
        staged.files.map((f) => f.hash),
      )
    ).map((f) => f.hash),
  );
  try {
    for (const [i, file] of staged.files.entries()) {
      if (stored.has(file.hash) || staged.written.includes(file.hash)) continue;
      staged.written.push(file.hash);
      await writeMediaParts(db, file.hash, files[i]!.bytes);
    }
  } catch (error) {
    await discardMedia(db, staged);
    throw error;
  }
  return staged;
}

/**
 * Writes the rows of staged files (inside the caller's short transaction, with what refers to
 * them): the commit point, after which a file is served and backed up. A row is only written
 * when all its parts are there, else this throws; a file stored already is marked unused from
 * now (the orphan purge's grace starts again, as for a new upload).
 */
export async function commitMedia(
  db: Pick<Database, "execute">,
  purpose: MediaPurpose,
  staged: StagedMedia,
): Promise<StoredMedia[]> {
  for (const file of staged.files) {
    const written = rowsOf(
      await db.execute(sql`insert into media (hash, content_type, size, width, height, purpose)
        select ${file.hash}, ${file.contentType}, ${file.size}::int, ${file.width}::int,
          ${file.height}::int, ${purpose}
        where (select count(*) from media_parts where hash = ${file.hash}) = ${file.parts}::bigint
        on conflict (hash) do update set unreferenced_since = now()
        returning hash`),
    );
    if (written.length === 0) {
      throw new Error(`The parts of the file ${file.hash} are missing: it was not stored.`);
    }
  }
  return staged.files.map(({ hash, contentType, size, width, height }) => ({
    hash,
    contentType,
    size,
    width,
    height,
  }));
}

/**
 * Removes what `stageMedia` wrote, when the upload failed before its rows were written (best
 * effort: what stays, with the database gone say, the orphan purge deletes after an hour).
 */
export async function discardMedia(db: Database, staged: StagedMedia) {
  try {
    await deleteUnownedParts(db, staged.written);
  } catch (error) {
    logEvent("error", "media-parts-not-discarded", {
      hashes: staged.written.length,
      error: errorMessage(error),
    });
  }
}

/**
 * Stages `files`, then runs `commit` (which calls commitMedia in its transaction, with the
 * change that refers to the files): its result, or its error after the staged parts were
 * removed.
 */
export async function withStagedMedia<T>(
  db: Database,
  files: ProcessedFile[],
  commit: (staged: StagedMedia) => Promise<T>,
): Promise<T> {
  const staged = await stageMedia(db, files);
  try {
    return await commit(staged);
  } catch (error) {
    await discardMedia(db, staged);
    throw error;
  }
}

/** Stores processed files on their own (all their rows, or none). Returns them in order. */
export const storeMedia = (
  db: Database,
  purpose: MediaPurpose,
  files: ProcessedFile[],
): Promise<StoredMedia[]> =>
  withStagedMedia(db, files, (staged) => db.transaction((tx) => commitMedia(tx, purpose, staged)));

/**
 * A stored file with its bytes (read a part per statement and put together), or undefined.
 */
export async function readMedia(db: Database, hash: string) {
  const [row] = await db.select().from(media).where(eq(media.hash, hash)).limit(1);
  if (!row) return undefined;
  return { ...row, bytes: await readMediaParts(db, hash, row.size) };
}

/** Which of `hashes` are stored, without their bytes (local copies are checked against it). */
export async function readMediaInfos(db: Database, hashes: readonly string[]) {
  if (hashes.length === 0) return [];
  return db
    .select({ hash: media.hash, contentType: media.contentType, size: media.size })
    .from(media)
    .where(inArray(media.hash, [...hashes]));
}

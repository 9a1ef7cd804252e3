import { and, eq, inArray } from "drizzle-orm";

import { lockUntilCommit, type Database } from "../../../database/db.server";
import { media, profile, type StoredShareCard } from "../../../database/schema";
import { requestCardRefresh } from "~/features/cards/index.server";
import { commitMedia, withStagedMedia } from "~/features/media/index.server";
import type { ProfileContent, StoredCv, StoredPhoto } from "./profile";
import type { EducationInput, ExperienceInput } from "./timeline/timeline";
import { replaceEntries } from "./timeline/timeline.server";

/** The stored profile: what the owner wrote, and the uploaded files. */
export type StoredProfile = ProfileContent & {
  photo: StoredPhoto | null;
  cv: StoredCv | null;
  /** The home page's share card (app/features/cards), once drawn. */
  shareCard: StoredShareCard | null;
  updatedAt: Date;
};

/**
 * Writes `seed` as the profile when there is none yet (a new database, or one from before the
 * profile was stored): the site configuration is only ever what a database starts with.
 */
export async function ensureProfile(db: Database, seed: ProfileContent): Promise<boolean> {
  const inserted = await db
    .insert(profile)
    .values(pickContent(seed))
    .onConflictDoNothing()
    .returning({ id: profile.id });
  forgetProfile(db);
  return inserted.length > 0;
}

/**
 * The profile as this process last read it: every page shows part of it, and it changes only
 * when the owner saves. A write here forgets it; so does the database's change notice for a
 * write elsewhere (server/app.ts), before the page cache drops the pages that show it.
 */
const remembered = new WeakMap<Database, Promise<StoredProfile | null>>();

export function forgetProfile(db: Database) {
  remembered.delete(db);
}

export function rememberedProfile(db: Database): Promise<StoredProfile | null> {
  let read = remembered.get(db);
  if (!read) {
    const fresh = getProfile(db);
    read = fresh;
    remembered.set(db, fresh);
    // A failed read is not remembered: the next page asks again.
    fresh.catch(() => {
      if (remembered.get(db) === fresh) remembered.delete(db);
    });
  }
  return read;
}

/** The profile, or null before ensureProfile has run. */
export async function getProfile(db: Database): Promise<StoredProfile | null> {
  const [row] = await db.select().from(profile).limit(1);
  if (!row) return null;
  return {
    ...pickContent(row),
    photo: row.photo ?? null,
    cv: row.cv ?? null,
    shareCard: row.shareCard ?? null,
    updatedAt: row.updatedAt,
  };
}

/** What the owner wrote, without the files or the row's bookkeeping. */
export function pickContent(source: ProfileContent): ProfileContent {
  return {
    name: source.name,
    title: source.title,
    location: source.location,
    email: source.email,
    about: source.about,
    socials: source.socials,
    skills: source.skills,
    tools: source.tools,
  };
}

/**
 * Replaces what the owner wrote (checked by profileSchema first), and the fediverse handle when
 * given (checked by the social feature's readHandle); the files stay.
 */
export async function saveProfile(db: Database, content: ProfileContent, fediverseHandle?: string) {
  await db.transaction(async (tx) => {
    await tx
      .update(profile)
      .set({
        ...pickContent(content),
        ...(fediverseHandle === undefined ? {} : { fediverseHandle }),
        updatedAt: new Date(),
      })
      .where(eq(profile.id, true));
    // The owner's name, title and location are on the share cards.
    await requestCardRefresh(tx);
  });
  forgetProfile(db);
}

/**
 * Sets the photo (or removes it, with null) and drops the files of the one it replaces, in one
 * transaction under a lock; given a function, the photo is what it stores in that transaction
 * (uploadPhoto: the files' rows), so a failure anywhere leaves neither the files nor the
 * profile's change. Only the replaced photo's files go, never "every file but mine": two
 * uploads at once would otherwise each drop the other's files, leaving the profile pointing at
 * files that are gone. Returns how many files were dropped.
 */
export async function replacePhoto(
  db: Database,
  photo: StoredPhoto | null | ((tx: Database) => Promise<StoredPhoto>),
): Promise<number> {
  const dropped = await db.transaction(async (tx) => {
    await lockUntilCommit(tx, "profile:photo");
    if (typeof photo === "function") photo = await photo(tx as unknown as Database);
    const [row] = await tx
      .select({ photo: profile.photo })
      .from(profile)
      .where(eq(profile.id, true));
    await tx.update(profile).set({ photo, updatedAt: new Date() }).where(eq(profile.id, true));
    // The photo is on the share cards.
    await requestCardRefresh(tx);
    const kept = new Set(photo?.files.map((file) => file.hash));
    const old = (row?.photo?.files ?? []).map((file) => file.hash).filter((h) => !kept.has(h));
    return dropMedia(tx, "photo", old);
  });
  forgetProfile(db);
  return dropped;
}

/** As replacePhoto, for the CV. */
export async function replaceCv(
  db: Database,
  cv: StoredCv | null | ((tx: Database) => Promise<StoredCv>),
): Promise<number> {
  const dropped = await db.transaction(async (tx) => {
    await lockUntilCommit(tx, "profile:cv");
    if (typeof cv === "function") cv = await cv(tx as unknown as Database);
    const [row] = await tx.select({ cv: profile.cv }).from(profile).where(eq(profile.id, true));
    await tx.update(profile).set({ cv, updatedAt: new Date() }).where(eq(profile.id, true));
    const old = row?.cv && row.cv.hash !== cv?.hash ? [row.cv.hash] : [];
    return dropMedia(tx, "cv", old);
  });
  forgetProfile(db);
  return dropped;
}

type UploadedFiles = Parameters<typeof withStagedMedia>[1];

/**
 * Stores an uploaded photo's files (processPhoto's) and makes them the photo, all or nothing:
 * the bytes are written first (a part per statement, other requests going on between), then
 * the files' rows and the profile's change in one short transaction.
 */
export const uploadPhoto = (db: Database, files: UploadedFiles) =>
  withStagedMedia(db, files, (staged) =>
    replacePhoto(db, async (tx) => ({
      files: (await commitMedia(tx, "photo", staged)).map((f) => ({
        hash: f.hash,
        type: f.contentType as "image/webp" | "image/jpeg",
        width: f.width!,
        height: f.height!,
      })),
    })),
  );

/** Stores an uploaded CV (processCv's file) and makes it the CV, all or nothing (as uploadPhoto). */
export const uploadCv = (db: Database, files: UploadedFiles) =>
  withStagedMedia(db, files, (staged) =>
    replaceCv(db, async (tx) => {
      const [stored] = await commitMedia(tx, "cv", staged);
      return { hash: stored!.hash, size: stored!.size };
    }),
  );

async function dropMedia(tx: Pick<Database, "delete">, purpose: string, hashes: string[]) {
  if (hashes.length === 0) return 0;
  const deleted = await tx
    .delete(media)
    .where(and(eq(media.purpose, purpose), inArray(media.hash, hashes)))
    .returning({ hash: media.hash });
  return deleted.length;
}

/**
 * A JSON Resume import: the profile's text, every experience and every education entry
 * replaced at once (files stay), or nothing changed.
 */
export async function replaceResume(
  db: Database,
  resume: { profile: ProfileContent; experiences: ExperienceInput[]; education: EducationInput[] },
) {
  await db.transaction(async (tx) => {
    await tx
      .update(profile)
      .set({ ...pickContent(resume.profile), updatedAt: new Date() })
      .where(eq(profile.id, true));
    await replaceEntries(tx, "experience", resume.experiences);
    await replaceEntries(tx, "education", resume.education);
    await requestCardRefresh(tx);
  });
  forgetProfile(db);
}

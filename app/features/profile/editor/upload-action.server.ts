import type { Database } from "../../../../database/db.server";
import { UPLOAD_LIMITS, UPLOAD_TEXT } from "~/features/media";
import { processCv, processPhoto, refusalAnswer } from "~/features/media/index.server";
import type { Env } from "~/lib/env.server";
import { storeUpload } from "~/lib/storage-faults.server";

import { replaceCv, replacePhoto, uploadCv, uploadPhoto } from "../profile.server";
import {
  done,
  failed,
  FILE_FIELD,
  fileOf,
  intentOf,
  unknownIntent,
  type Answer,
  type Files,
} from "./form.server";

/** Upload (replacing the one before) or Remove. */
const INTENTS = ["upload", "remove"] as const;

/** What the photo's and the CV's forms may post: one file each, within its limit. */
export const PHOTO_UPLOAD = { [FILE_FIELD]: UPLOAD_LIMITS.photo };
export const CV_UPLOAD = { [FILE_FIELD]: UPLOAD_LIMITS.cv };

/** Where an upload is stored: the database, on the server's disk when embedded (storeUpload). */
type Storage = Pick<Env, "databaseUrl" | "dataDir">;

/** The photo's form: resized and stripped (processPhoto), stored, shown everywhere at once. */
export async function editPhoto(
  db: Database,
  form: FormData,
  files: Files,
  env: Storage,
): Promise<Answer> {
  const intent = intentOf(form, INTENTS);
  if (intent === null) return unknownIntent();
  if (intent === "remove") {
    await replacePhoto(db, null);
    return done("photo", "Photo removed.");
  }
  const bytes = fileOf(files);
  if (!bytes) return failed("photo", 400, UPLOAD_TEXT.noFile);
  const processed = await processPhoto(bytes);
  if (!processed.ok) return failed("photo", refusalAnswer(processed).status, processed.error);
  const stored = await storeUpload(env, processed.files, () => uploadPhoto(db, processed.files));
  if (!stored.ok) return failed("photo", stored.status, stored.message);
  return done("photo", "Photo uploaded.");
}

/** The CV's form: a PDF, checked (processCv) and stored. */
export async function editCv(
  db: Database,
  form: FormData,
  files: Files,
  env: Storage,
): Promise<Answer> {
  const intent = intentOf(form, INTENTS);
  if (intent === null) return unknownIntent();
  if (intent === "remove") {
    await replaceCv(db, null);
    return done("cv", "CV removed.");
  }
  const bytes = fileOf(files);
  if (!bytes) return failed("cv", 400, UPLOAD_TEXT.noFile);
  const processed = await processCv(bytes);
  if (!processed.ok) return failed("cv", 400, processed.error);
  const stored = await storeUpload(env, processed.files, () => uploadCv(db, processed.files));
  if (!stored.ok) return failed("cv", stored.status, stored.message);
  return done("cv", "CV uploaded.");
}

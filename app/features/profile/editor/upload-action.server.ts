import type { Database } from "../../../../database/db.server";
import { UPLOAD_TEXT } from "~/features/media";
import { processCv, processPhoto, refusalAnswer } from "~/features/media/index.server";
import type { Env } from "~/lib/env.server";
import { storeUpload } from "~/lib/storage-faults.server";

import { replaceCv, replacePhoto, uploadCv, uploadPhoto } from "../profile.server";
import { done, failed, fileOf, intentOf, unknownIntent, type Answer } from "./form.server";

/** Upload (replacing the one before) or Remove. */
const INTENTS = ["upload", "remove"] as const;

/** Where an upload is stored: the database, on the server's disk when embedded (storeUpload). */
type Storage = Pick<Env, "databaseUrl" | "dataDir">;

/** The photo's form: resized and stripped (processPhoto), stored, shown everywhere at once. */
export async function editPhoto(db: Database, form: FormData, env: Storage): Promise<Answer> {
  const intent = intentOf(form, INTENTS);
  if (intent === null) return unknownIntent();
  if (intent === "remove") {
    await replacePhoto(db, null);
    return done("photo", "Photo removed.");
  }
  const bytes = await fileOf(form);
  if (!bytes) return failed("photo", 400, UPLOAD_TEXT.noFile);
  const processed = await processPhoto(bytes);
  if (!processed.ok) return failed("photo", refusalAnswer(processed).status, processed.error);
  const stored = await storeUpload(env, processed.files, () => uploadPhoto(db, processed.files));
  if (!stored.ok) return failed("photo", stored.status, stored.message);
  return done("photo", "Photo uploaded.");
}

/** The CV's form: a PDF, checked (processCv) and stored. */
export async function editCv(db: Database, form: FormData, env: Storage): Promise<Answer> {
  const intent = intentOf(form, INTENTS);
  if (intent === null) return unknownIntent();
  if (intent === "remove") {
    await replaceCv(db, null);
    return done("cv", "CV removed.");
  }
  const bytes = await fileOf(form);
  if (!bytes) return failed("cv", 400, UPLOAD_TEXT.noFile);
  const processed = await processCv(bytes);
  if (!processed.ok) return failed("cv", 400, processed.error);
  const stored = await storeUpload(env, processed.files, () => uploadCv(db, processed.files));
  if (!stored.ok) return failed("cv", stored.status, stored.message);
  return done("cv", "CV uploaded.");
}

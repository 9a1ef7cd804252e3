import type { Database } from "../../../../database/db.server";
import { UPLOAD_TEXT } from "~/features/media";
import { processCv, processPhoto, refusalAnswer, storeMedia } from "~/features/media/index.server";

import { replaceCv, replacePhoto } from "../profile.server";
import { done, failed, fileOf, intentOf, unknownIntent, type Answer } from "./form.server";

/** Upload (replacing the one before) or Remove. */
const INTENTS = ["upload", "remove"] as const;

/** The photo's form: resized and stripped (processPhoto), stored, shown everywhere at once. */
export async function editPhoto(db: Database, form: FormData): Promise<Answer> {
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
  const stored = await storeMedia(db, "photo", processed.files);
  await replacePhoto(db, {
    files: stored.map((f) => ({
      hash: f.hash,
      type: f.contentType as "image/webp" | "image/jpeg",
      width: f.width!,
      height: f.height!,
    })),
  });
  return done("photo", "Photo uploaded.");
}

/** The CV's form: a PDF, checked (processCv) and stored. */
export async function editCv(db: Database, form: FormData): Promise<Answer> {
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
  const [stored] = await storeMedia(db, "cv", processed.files);
  await replaceCv(db, { hash: stored!.hash, size: stored!.size });
  return done("cv", "CV uploaded.");
}

import { data } from "react-router";

import { appContext } from "~/context";
import {
  IMAGE_FIELD,
  postImageOf,
  UPLOAD_LIMITS,
  UPLOAD_TEXT,
  uploadTooLargeText,
} from "~/features/media";
import { processImage, refusalAnswer, storeMedia } from "~/features/media/index.server";
import { readPostedForm } from "~/lib/posted-form.server";
import { storeUpload } from "~/lib/storage-faults.server";

import type { Route } from "./+types/api.images";

const refuse = (error: string, status = 400, headers: HeadersInit = {}) =>
  data({ ok: false, error }, { status, headers });

/**
 * POST /api/images: an image for a post (owner only), as the `image` field of a multipart form,
 * whatever type its part claims (the bytes decide). Answers 201 with what the editor inserts
 * (the fallback file's URL, the WebP `srcset`, the dimensions), or 400/413 with the text to
 * show, or 503 when the server is processing too many images already (507/503 when the disk is
 * full or the database is gone: storeUpload). Nothing is stored unless every file was made; the
 * files' bytes are written a part per statement, then their rows in one transaction
 * (storeMedia).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return data({ ok: false, error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  }
  let bytes: Uint8Array | undefined;
  try {
    // Read as it arrives, never joined whole (readPostedForm).
    const { files } = await readPostedForm(request, { [IMAGE_FIELD]: UPLOAD_LIMITS.image });
    bytes = files.get(IMAGE_FIELD)?.bytes;
  } catch {
    return refuse("Send the image as a multipart form.");
  }
  if (!bytes) return refuse(UPLOAD_TEXT.noFile);
  if (bytes.byteLength > UPLOAD_LIMITS.image) return refuse(uploadTooLargeText("image"), 413);
  const processed = await processImage(bytes);
  if (!processed.ok) {
    const { status, headers } = refusalAnswer(processed);
    return refuse(processed.error, status, headers);
  }
  const { db, env } = context.get(appContext);
  const stored = await storeUpload(env, processed.files, () =>
    storeMedia(db, "image", processed.files),
  );
  if (!stored.ok) return refuse(stored.message, stored.status);
  return data({ ok: true, image: postImageOf(stored.value) }, { status: 201 });
}

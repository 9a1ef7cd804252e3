import { IMAGE_FIELD, UPLOAD_LIMITS, uploadTooLargeText, type PostImage } from "~/features/media";

export type UploadResult = { ok: true; image: PostImage } | { ok: false; error: string };

export const IMAGE_UPLOAD_TEXT = {
  uploading: "Uploading image…",
  failed: "The image could not be uploaded. Check your connection and try again.",
} as const;

/**
 * Sends one file to POST /api/images, which checks its bytes and makes the served files. A file
 * over the limit is refused here without sending it; every other check is the server's, and its
 * text is what the owner sees.
 */
export async function uploadImage(file: File): Promise<UploadResult> {
  if (file.size > UPLOAD_LIMITS.image) return { ok: false, error: uploadTooLargeText("image") };
  const body = new FormData();
  body.append(IMAGE_FIELD, file);
  try {
    const response = await fetch("/api/images", { method: "POST", body });
    const answer = (await response.json().catch(() => null)) as
      { ok: true; image: PostImage } | { ok: false; error?: string } | null;
    if (response.ok && answer?.ok) return { ok: true, image: answer.image };
    return {
      ok: false,
      error: (answer && !answer.ok && answer.error) || IMAGE_UPLOAD_TEXT.failed,
    };
  } catch {
    return { ok: false, error: IMAGE_UPLOAD_TEXT.failed };
  }
}

import { formatBytes } from "~/lib/format";
import { highlightCodeBlocks } from "./highlight.server";
import { renderMath } from "./math.server";
import { imagesWithoutAlt, missingAltText, postBodyLimit, POST_LIMITS, textOfHtml } from "./rules";
import { autosaveSchema, postSchema, type AutosaveInput, type PostInput } from "./schema";
import { loadPostSanitizer, loadWriteSanitizer } from "./sanitize.server";

/** Request bodies above this are refused unread (the post API's body limit). */
export const MAX_POST_REQUEST_BYTES = postBodyLimit(POST_LIMITS.contentBytes);
/** Said for a body over that: the limit a writer can act on is the content's. */
export const POST_TOO_LARGE = `The post is larger than ${formatBytes(POST_LIMITS.contentBytes)}.`;
export const CONTENT_TOO_LARGE = `The content is larger than ${formatBytes(POST_LIMITS.contentBytes)}.`;

export type PostWrite =
  { ok: true; value: PostInput } | { ok: false; status: number; error: string };

/**
 * Reads a post from a JSON request: 415 for another content type, 413 when too large, 400 with
 * the first problem otherwise. The content comes back sanitized, its code blocks highlighted
 * (app/features/posts/highlight.server.ts), ready to store.
 */
export async function readPostWrite(request: Request): Promise<PostWrite> {
  const body = await readJsonBody(request);
  if (!body.ok) return body;
  const parsed = postSchema.safeParse(body.value);
  if (!parsed.success) {
    return { ok: false, status: 400, error: parsed.error.issues[0]?.message ?? "Invalid post." };
  }
  if (Buffer.byteLength(parsed.data.content) > POST_LIMITS.contentBytes) {
    return { ok: false, status: 413, error: CONTENT_TOO_LARGE };
  }
  const content = await storableContent(parsed.data.content);
  if (!content.ok) return { ok: false, status: 400, error: content.error };
  return { ok: true, value: { ...parsed.data, content: content.html } };
}

/**
 * Post HTML as a save stores it (the editor's, an import's): sanitized, refused when it has no
 * text, an image without alternative text or math KaTeX cannot read (./math.server.ts), its
 * code blocks highlighted and its math rendered.
 */
export async function storableContent(
  html: string,
): Promise<{ ok: true; html: string } | { ok: false; error: string }> {
  const clean = (await loadWriteSanitizer())(html);
  if (textOfHtml(clean) === "") return { ok: false, error: "Content is required." };
  const withoutAlt = imagesWithoutAlt(clean);
  if (withoutAlt > 0) return { ok: false, error: missingAltText(withoutAlt) };
  const math = await renderMath(clean);
  if (!math.ok) return math;
  // Stored as the stored sanitizer writes it (its entities, its attribute order), so that the
  // sanitizing on every render finds nothing to change.
  return { ok: true, html: (await loadPostSanitizer())(await highlightCodeBlocks(math.html)) };
}

type Failure = { ok: false; status: number; error: string };

/** A post request's JSON: 415 for another content type, 413 when too large, 400 when not JSON. */
async function readJsonBody(request: Request): Promise<{ ok: true; value: unknown } | Failure> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    return { ok: false, status: 415, error: "Send the post as application/json." };
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_POST_REQUEST_BYTES) {
    return { ok: false, status: 413, error: POST_TOO_LARGE };
  }
  const raw = await request.text();
  if (Buffer.byteLength(raw) > MAX_POST_REQUEST_BYTES) {
    return { ok: false, status: 413, error: POST_TOO_LARGE };
  }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false, status: 400, error: "The request body is not valid JSON." };
  }
}

/**
 * Reads an autosave (autosaveSchema): the same size limits as a save, the content sanitized,
 * and nothing else refused that the owner may still be typing.
 */
export async function readAutosave(
  request: Request,
): Promise<{ ok: true; value: AutosaveInput } | Failure> {
  const body = await readJsonBody(request);
  if (!body.ok) return body;
  const parsed = autosaveSchema.safeParse(body.value);
  if (!parsed.success) {
    return { ok: false, status: 400, error: parsed.error.issues[0]?.message ?? "Invalid post." };
  }
  if (Buffer.byteLength(parsed.data.content) > POST_LIMITS.contentBytes) {
    return { ok: false, status: 413, error: CONTENT_TOO_LARGE };
  }
  // Sanitized as a save's is, but not highlighted: that waits for Save Post or Update Post (the
  // editor and the History take the highlighter's tokens off anyway), so an autosave of a long
  // post with code costs a few milliseconds, not tens.
  const content = (await loadWriteSanitizer())(parsed.data.content);
  return { ok: true, value: { ...parsed.data, content } };
}

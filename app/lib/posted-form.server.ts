import { setImmediate as nextTurn } from "node:timers/promises";

import busboy from "busboy";

/**
 * Reading a posted form with files in it as it arrives (docs/decisions/050-streaming-uploads.md).
 * `request.formData()` joins the whole body, splits it into parts as one more copy, and hands
 * a file over as a Blob that is copied once again when read: for a 10 MB upload, three copies
 * of 10 MB in stretches of 40–100 ms with no turn of the event loop, while every other
 * visitor waits. Here busboy parses each chunk as it comes off the socket, a file's bytes are
 * kept as the chunks it came in, and they are joined once, a slice at a time with a turn
 * between slices.
 */

/** A file field's upload: the name the browser gave it, and its bytes. */
export type PostedFile = { name: string; bytes: Uint8Array };

/** A posted form: its text fields as FormData, its files by field name (none for an input left empty). */
export type PostedForm = { fields: FormData; files: ReadonlyMap<string, PostedFile> };

/** The body could not be read as a form (malformed multipart, a cut connection). */
export class PostedFormError extends Error {}

/** A file's bytes are joined this many at a time, with a turn of the event loop after each. */
const JOIN_SLICE_BYTES = 1024 * 1024;

/**
 * Reads `request`'s form. `files` names the file fields wanted, each with the most bytes it
 * may hold: a file keeps at most one byte more than that (enough for its caller to refuse it
 * as too large, with its own text), the rest of it is read and dropped, as are files in
 * fields not named. The request's body limit (app/route-policy.ts) bounds the whole.
 * A form that is not multipart (no file in it) is read by `request.formData()`.
 */
export async function readPostedForm(
  request: Request,
  files: Readonly<Record<string, number>>,
): Promise<PostedForm> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type) || !request.body) {
    try {
      return { fields: await request.formData(), files: new Map() };
    } catch (error) {
      throw new PostedFormError("The form could not be read.", { cause: error });
    }
  }
  const fields = new FormData();
  const received = new Map<string, { name: string; chunks: Buffer[]; size: number }>();
  const parser = busboy({
    headers: { "content-type": type },
    // Browsers send a file's name as UTF-8 bytes, unencoded.
    defParamCharset: "utf8",
    // The route's body limit bounds fields; a field cut short would change what was typed.
    limits: { fieldSize: Number.MAX_SAFE_INTEGER },
  });
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on("field", (name, value) => fields.append(name, value));
    parser.on("file", (name, stream, info) => {
      // A form cut short fails the file's stream and the parser alike: the parser's error is
      // the one reported.
      stream.on("error", () => {});
      if (!Object.hasOwn(files, name) || received.has(name)) {
        stream.resume();
        return;
      }
      const cap = files[name]! + 1;
      const file = { name: info.filename ?? "", chunks: [] as Buffer[], size: 0 };
      received.set(name, file);
      stream.on("data", (chunk: Buffer) => {
        const kept = Math.min(chunk.length, cap - file.size);
        if (kept <= 0) return;
        file.chunks.push(kept === chunk.length ? chunk : chunk.subarray(0, kept));
        file.size += kept;
      });
    });
    parser.on("close", resolve);
    parser.on("error", reject);
  });
  // Nothing may reject unheard while the body is still being fed.
  parsed.catch(() => {});
  try {
    for await (const chunk of request.body) {
      if (!parser.write(chunk)) await new Promise((resume) => parser.once("drain", resume));
    }
    parser.end();
    await parsed;
  } catch (error) {
    parser.destroy();
    throw new PostedFormError("The form could not be read.", { cause: error });
  }
  const joined = new Map<string, PostedFile>();
  for (const [field, { name, chunks, size }] of received) {
    // A file input left empty sends a part with no bytes: no file was chosen.
    if (size > 0) joined.set(field, { name, bytes: await join(chunks, size) });
  }
  return { fields, files: joined };
}

/** The chunks' bytes in one buffer, copied a slice at a time with a turn after each. */
async function join(chunks: Buffer[], size: number): Promise<Uint8Array> {
  if (chunks.length === 1) return chunks[0]!;
  // Not zeroed first: every byte is written below.
  const bytes = Buffer.allocUnsafeSlow(size);
  let offset = 0;
  let sinceTurn = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
    sinceTurn += chunk.length;
    if (sinceTurn >= JOIN_SLICE_BYTES) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  return bytes;
}

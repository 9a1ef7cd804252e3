import { appContext } from "~/context";
// A file's URL names its content's hash, so its bytes never change: cached like built assets.
import { IMMUTABLE_CACHE, parseMediaFile } from "~/features/media";
import { readMedia, readMediaInfo } from "~/features/media/index.server";

import type { Route } from "./+types/media";

/** What the browser saves a CV as, whatever its hash. */
const CV_FILENAME = "cv.pdf";

const notFound = () =>
  new Response("Not Found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });

/** Whether an If-None-Match names this ETag (a weak match is enough for a GET, RFC 9110). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === etag || tag === "*");
}

/**
 * GET /media/{sha256}.{ext}: an uploaded file (app/features/media/store.server.ts), as stored. A
 * name that is not a hash and a known extension, an unknown hash, or an extension that is not the
 * stored file's type answers 404: each file has exactly one URL.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const wanted = parseMediaFile(params.file);
  if (!wanted) return notFound();
  const { db } = context.get(appContext);
  const etag = `"${wanted.hash}"`;
  const headers = {
    "Cache-Control": IMMUTABLE_CACHE,
    ETag: etag,
    // The stored type is the one the bytes were checked as: browsers must not guess another.
    "X-Content-Type-Options": "nosniff",
  };

  // A revalidation needs to know the file still exists, not its bytes (a CV is up to 10 MB).
  if (matches(request.headers.get("If-None-Match"), etag)) {
    const info = await readMediaInfo(db, wanted.hash);
    if (!info || info.contentType !== wanted.contentType) return notFound();
    return new Response(null, { status: 304, headers });
  }

  const file = await readMedia(db, wanted.hash);
  if (!file || file.contentType !== wanted.contentType) return notFound();
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...headers,
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      ...(file.contentType === "application/pdf"
        ? { "Content-Disposition": `inline; filename="${CV_FILENAME}"` }
        : {}),
    },
  });
}

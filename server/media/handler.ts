import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

import { IMMUTABLE_CACHE, parseMediaFile } from "../../app/features/media";
import { CONNECTION_LIMITS, UNAVAILABLE_RETRY_AFTER } from "../../app/lib/limits";
import { errorMessage, logEvent } from "../../app/lib/log.server";
import type { SiteHeaders } from "../fast-path";
import { etagMatches } from "../page-cache/middleware";
import { HSTS, MEDIA_RESOURCE_POLICY } from "../security";
import type { MediaCache, Opened } from "./cache";
import { byteRange } from "./range";

export const MEDIA_PREFIX = "/media/";
/** What the browser saves a CV as, whatever its hash. */
const CV_FILENAME = "cv.pdf";
/** The piece of a file handed to the socket at a time. */
const CHUNK_BYTES = 64 * 1024;

export type MediaHandlerOptions = {
  cache: MediaCache;
  /** The site-wide headers (server/security.ts), as the full app sends them. */
  site: SiteHeaders;
  /** Whether a request is https (HSTS then), as server/middleware/sender.ts decides. */
  isSecure?: (req: IncomingMessage) => boolean;
  /** CONNECTION_LIMITS.sendStallMs unless a test says otherwise. */
  sendStallMs?: number;
};

type Headers = [string, string][];

/**
 * GET and HEAD /media/{sha256}.{ext}, answered at the node:http listener: an uploaded file from
 * its local copy (./cache.ts), streamed, with ranges, revalidation and the site's security
 * headers (but Cross-Origin-Resource-Policy, which lets other origins show it). A name that is
 * not one `mediaUrl` makes, an unknown hash, or an extension that is not the stored type answers
 * 404: each file has exactly one URL. A query string is answered with a permanent redirect to
 * that URL, without reading anything: made-up queries cannot make the database read a file or a
 * CDN keep another copy. Returns false for any other path.
 */
export function mediaHandler(options: MediaHandlerOptions) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!req.url?.startsWith(MEDIA_PREFIX)) return false;
    serve(options, req, res).catch((error: unknown) => {
      logEvent("error", "media_failed", { path: req.url, error: errorMessage(error) });
      if (!res.headersSent)
        answer(options, req, res, 503, [["Retry-After", UNAVAILABLE_RETRY_AFTER]]);
      else res.destroy();
    });
    return true;
  };
}

const STATUS_TEXT: Record<number, string> = {
  404: "Not Found",
  405: "Method Not Allowed",
  503: "Service Unavailable",
};

function siteHeaders(options: MediaHandlerOptions, req: IncomingMessage, status: number): Headers {
  const headers: Headers = options.site
    .for(status)
    .map(([name, value]) => [
      name,
      name.toLowerCase() === "cross-origin-resource-policy" ? MEDIA_RESOURCE_POLICY : value,
    ]);
  headers.push(["X-Request-Id", randomUUID()]);
  if (options.isSecure?.(req)) headers.push(["Strict-Transport-Security", HSTS]);
  return headers;
}

/** An answer without a file: a short text (none for a redirect or a 416). */
function answer(
  options: MediaHandlerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  extra: Headers = [],
) {
  const text = STATUS_TEXT[status] ?? "";
  const headers = [...siteHeaders(options, req, status), ...extra];
  if (text) headers.push(["Content-Type", "text/plain; charset=utf-8"]);
  headers.push(["Content-Length", String(Buffer.byteLength(text))]);
  res.writeHead(status, headers.flat());
  res.end(req.method === "HEAD" ? undefined : text);
}

async function serve(options: MediaHandlerOptions, req: IncomingMessage, res: ServerResponse) {
  const url = req.url!;
  const queryAt = url.indexOf("?");
  const name = url.slice(MEDIA_PREFIX.length, queryAt < 0 ? undefined : queryAt);
  if (req.method !== "GET" && req.method !== "HEAD") {
    // A body sent along is not read: the connection closes rather than carry it into the next.
    return answer(options, req, res, 405, [
      ["Allow", "GET, HEAD"],
      ["Connection", "close"],
    ]);
  }
  const wanted = parseMediaFile(name);
  if (!wanted) return answer(options, req, res, 404);
  if (queryAt >= 0) {
    return answer(options, req, res, 301, [
      ["Location", `${MEDIA_PREFIX}${name}`],
      ["Cache-Control", IMMUTABLE_CACHE],
    ]);
  }
  const opened = await options.cache.open(wanted.hash);
  if (!opened || opened.info.contentType !== wanted.contentType) {
    await opened?.handle?.close();
    return answer(options, req, res, 404);
  }
  const { info } = opened;
  const etag = `"${info.hash}"`;
  const fileHeaders: Headers = [
    ["Cache-Control", IMMUTABLE_CACHE],
    ["ETag", etag],
  ];
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) {
    await opened.handle?.close();
    res.writeHead(304, [...siteHeaders(options, req, 304), ...fileHeaders].flat());
    res.end();
    return;
  }
  fileHeaders.push(["Content-Type", info.contentType], ["Accept-Ranges", "bytes"]);
  if (info.contentType === "application/pdf") {
    fileHeaders.push(["Content-Disposition", `inline; filename="${CV_FILENAME}"`]);
  }
  // If-Range names the file a client holds part of: another (or a date) asks for all of it.
  const ifRange = req.headers["if-range"];
  const range =
    ifRange === undefined || ifRange === etag ? byteRange(req.headers.range, info.size) : null;
  if (range === "unsatisfiable") {
    await opened.handle?.close();
    return answer(options, req, res, 416, [["Content-Range", `bytes */${info.size}`]]);
  }
  const status = range ? 206 : 200;
  const { start, end } = range ?? { start: 0, end: info.size - 1 };
  if (range) fileHeaders.push(["Content-Range", `bytes ${start}-${end}/${info.size}`]);
  const length = end - start + 1;
  fileHeaders.push(["Content-Length", String(length)]);
  res.writeHead(status, [...siteHeaders(options, req, status), ...fileHeaders].flat());
  if (req.method === "HEAD" || length === 0) {
    await opened.handle?.close();
    res.end();
    return;
  }
  closeWhenStalled(res, options.sendStallMs ?? CONNECTION_LIMITS.sendStallMs);
  await sendBytes(res, opened, start, end).finally(() => opened.handle?.close());
}

/**
 * The most file bytes all responses together hand to their sockets in one turn of the event
 * loop. A write copies into the kernel on this thread: 200 clients taking the 10 MB CV at once
 * would otherwise copy many megabytes in one turn, and every other request would wait behind it.
 */
const TURN_BYTES = 1024 * 1024;
let sentThisTurn = 0;
let turnEndQueued = false;

/** Waits, when this turn has sent its share, for a turn that has room for `bytes`. */
async function turnWithRoom(bytes: number) {
  while (sentThisTurn >= TURN_BYTES) await new Promise((resolve) => setImmediate(resolve));
  if (!turnEndQueued) {
    // Runs before the waiters queued after it: they then find the next turn's room.
    turnEndQueued = true;
    setImmediate(() => {
      sentThisTurn = 0;
      turnEndQueued = false;
    });
  }
  sentThisTurn += bytes;
}

/** Buffers of CHUNK_BYTES, reused from one response to the next (no garbage per chunk). */
const freeBuffers: Buffer[] = [];
const POOLED_BUFFERS = 256;

/** Resolves once the socket took `chunk`, or the response closed (the client left, or stalled). */
const written = (res: ServerResponse, chunk: Buffer) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off("close", done);
      resolve();
    };
    res.once("close", done);
    res.write(chunk, done);
  });

/**
 * Sends the bytes from `start` to `end` (included) a chunk at a time, each once the socket took
 * the one before (backpressure): a copy is read into a pooled buffer (a read stream's fresh
 * buffer per chunk made the collector run several times a second under load), bytes read from
 * the database go out as views of themselves.
 */
async function sendBytes(res: ServerResponse, opened: Opened, start: number, end: number) {
  const buffer = opened.handle ? (freeBuffers.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES)) : null;
  let closed = false;
  const onClose = () => (closed = true);
  res.once("close", onClose);
  try {
    for (let at = start; at <= end && !closed;) {
      const length = Math.min(CHUNK_BYTES, end + 1 - at);
      let chunk: Buffer;
      if (buffer && opened.handle) {
        const { bytesRead } = await opened.handle.read(buffer, 0, length, at);
        if (bytesRead === 0) throw new Error("the copy is shorter than its file");
        chunk = buffer.subarray(0, bytesRead);
      } else {
        chunk = Buffer.from(opened.bytes!.buffer, opened.bytes!.byteOffset + at, length);
      }
      at += chunk.length;
      if (closed) break;
      await turnWithRoom(chunk.length);
      if (closed) break;
      await written(res, chunk);
    }
    if (!closed) res.end();
  } finally {
    res.off("close", onClose);
    // Only once the socket took every chunk written from it, or was closed.
    if (buffer && freeBuffers.length < POOLED_BUFFERS) freeBuffers.push(buffer);
  }
}

/**
 * Destroys the response's socket when it took no byte in a whole period: a client that asked
 * for a file and does not read holds a socket, an open file and a bounded buffer for at most 1.2
 * periods. Bytes count as taken once the kernel accepted them (the socket's `bytesWritten`
 * moves only as earlier writes complete).
 */
function closeWhenStalled(res: ServerResponse, periodMs: number) {
  const socket = res.socket;
  if (!socket) return;
  let last = socket.bytesWritten;
  let progressAt = Date.now();
  // Looked at five times a period: a stalled socket goes between one and 1.2 periods after
  // its last byte.
  const timer = setInterval(
    () => {
      const written = socket.bytesWritten;
      if (written !== last) {
        last = written;
        progressAt = Date.now();
      } else if (Date.now() - progressAt >= periodMs) {
        clearInterval(timer);
        socket.destroy();
      }
    },
    Math.max(1, Math.floor(periodMs / 5)),
  );
  const stop = () => clearInterval(timer);
  res.once("finish", stop);
  res.once("close", stop);
}

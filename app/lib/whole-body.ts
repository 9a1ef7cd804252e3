/**
 * A rendered document's bytes, carried on the Response that sends them, so the server's own
 * middleware (compression, the page cache) can read them as they are. Reading them back through
 * the Response copies them twice (the Fetch API's constructor takes a copy of a byte body, and
 * `arrayBuffer()` joins what it reads into another), and under load those copies waited for the
 * garbage collector in the C heap: about a third of a server's peak memory with the page cache
 * off (docs/decisions/051-documents-not-copied.md).
 *
 * The key is a registered symbol, not a module's WeakMap, so a development server that loads
 * the app's modules apart from its own still finds it. A response made anew (a middleware's
 * `new Response(res.body, res)`) carries nothing, and is read the usual way.
 */
const WHOLE_BODY = Symbol.for("portfolio.document-bytes");

type Carrier = Response & { [WHOLE_BODY]?: Buffer<ArrayBuffer> };

/** Marks `response` as carrying exactly `bytes` as its body; returns it. */
export function withWholeBody(response: Response, bytes: Buffer<ArrayBuffer>): Response {
  (response as Carrier)[WHOLE_BODY] = bytes;
  return response;
}

/** The body bytes `response` was made with by withWholeBody, if it was. */
export function wholeBodyOf(response: Response): Buffer<ArrayBuffer> | undefined {
  return (response as Carrier)[WHOLE_BODY];
}

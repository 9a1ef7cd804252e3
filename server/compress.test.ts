import { gunzipSync, inflateSync } from "node:zlib";

import { Hono } from "hono";
import { describe, expect, it } from "vitest";

import { withWholeBody } from "../app/lib/whole-body";
import { compress, COMPRESS_THRESHOLD, selectEncoding } from "./compress";

const PAGE = "<!DOCTYPE html><p>" + "A page worth compressing. ".repeat(200) + "</p>";

/** An app answering `/page` whole (with its length), `/stream` in chunks of unknown length. */
function appWith(headers: Record<string, string> = {}, body = PAGE) {
  const app = new Hono();
  app.use(compress());
  app.get("/page", () => {
    const bytes = Buffer.from(body);
    return new Response(bytes, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Length": String(bytes.length),
        ...headers,
      },
    });
  });
  app.get("/stream", () => {
    const parts = [body.slice(0, 100), body.slice(100)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(part));
      },
    });
    return new Response(stream, { headers: { "Content-Type": "text/x-script", ...headers } });
  });
  return app;
}

const get = (app: Hono, path: string, acceptEncoding?: string, method = "GET") =>
  app.request(path, {
    method,
    headers: acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding },
  });

describe("compress", () => {
  it("packs a whole body in one gzip member, with its compressed length", async () => {
    const res = await get(appWith({ ETag: '"v1"' }), "/page", "gzip, deflate, br");
    const packed = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get("Content-Encoding")).toBe("gzip");
    expect(res.headers.get("Content-Length")).toBe(String(packed.length));
    expect(packed.length).toBeLessThan(PAGE.length / 10);
    expect(gunzipSync(packed).toString()).toBe(PAGE);
    expect(res.headers.get("Vary")).toBe("Accept-Encoding");
    // Not the same bytes as the identity response, so no longer a strong validator.
    expect(res.headers.get("ETag")).toBe('W/"v1"');
  });

  it("packs a document's own bytes, never reading them back through its body", async () => {
    const app = new Hono();
    app.use(compress());
    let bodyRead = false;
    app.get("/document", () => {
      const bytes = Buffer.from(PAGE);
      // The body is another text, so only the bytes carried beside it can give PAGE back.
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            bodyRead = true;
            controller.enqueue(new TextEncoder().encode("not the document"));
            controller.close();
          },
        },
        // Nothing is pulled before a reader asks.
        { highWaterMark: 0 },
      );
      const headers = {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Length": String(bytes.length),
      };
      return withWholeBody(new Response(body, { headers }), bytes);
    });
    const res = await get(app, "/document", "gzip");
    const packed = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get("Content-Encoding")).toBe("gzip");
    expect(res.headers.get("Content-Length")).toBe(String(packed.length));
    expect(gunzipSync(packed).toString()).toBe(PAGE);
    expect(bodyRead).toBe(false);
  });

  it("compresses a body of unknown length as a stream", async () => {
    const res = await get(appWith(), "/stream", "gzip");
    expect(res.headers.get("Content-Encoding")).toBe("gzip");
    expect(res.headers.get("Content-Length")).toBeNull();
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(PAGE);
  });

  it("answers deflate to a client that takes only deflate, or prefers it", async () => {
    for (const accept of ["deflate", "gzip;q=0.5, deflate", "gzip;q=0, *"]) {
      const res = await get(appWith(), "/page", accept);
      expect(res.headers.get("Content-Encoding"), accept).toBe("deflate");
      expect(inflateSync(Buffer.from(await res.arrayBuffer())).toString(), accept).toBe(PAGE);
    }
  });

  it("sends the body as it is to a client that takes neither, still varying on the header", async () => {
    for (const accept of [undefined, "", "br", "identity", "gzip;q=0, deflate;q=0"]) {
      const res = await get(appWith(), "/page", accept);
      expect(res.headers.get("Content-Encoding"), accept).toBeNull();
      expect(res.headers.get("Vary"), accept).toBe("Accept-Encoding");
      expect(await res.text(), accept).toBe(PAGE);
    }
  });

  it("leaves alone what should not be compressed", async () => {
    const small = "<p>tiny</p>".repeat(Math.floor((COMPRESS_THRESHOLD - 1) / 11));
    const cases: [string, Hono, string, string | null, string | null][] = [
      // name, app, method, the encoding sent, the body received (null: not read)
      ["a body under the threshold", appWith({}, small), "GET", null, small],
      ["an image", appWith({ "Content-Type": "image/png" }), "GET", null, PAGE],
      ["no-transform", appWith({ "Cache-Control": "public, no-transform" }), "GET", null, PAGE],
      ["already encoded", appWith({ "Content-Encoding": "br" }), "GET", "br", null],
      ["a HEAD request", appWith(), "HEAD", null, null],
    ];
    for (const [name, app, method, encoding, body] of cases) {
      const res = await get(app, "/page", "gzip", method);
      expect(res.headers.get("Content-Encoding"), name).toBe(encoding);
      if (body !== null) expect(await res.text(), name).toBe(body);
    }
  });

  it("keeps an existing Vary and adds Accept-Encoding once", async () => {
    const res = await get(appWith({ Vary: "Cookie" }), "/page", "gzip");
    expect(res.headers.get("Vary")).toBe("Cookie, Accept-Encoding");
    const again = await get(appWith({ Vary: "accept-encoding" }), "/page", "gzip");
    expect(again.headers.get("Vary")).toBe("accept-encoding");
  });
});

describe("selectEncoding", () => {
  it("takes the client's highest q among gzip and deflate, gzip on a tie", () => {
    expect(selectEncoding("gzip, deflate")).toBe("gzip");
    expect(selectEncoding("deflate, gzip")).toBe("gzip");
    expect(selectEncoding("gzip;q=0.2, deflate;q=0.8")).toBe("deflate");
    expect(selectEncoding("*")).toBe("gzip");
    expect(selectEncoding("*;q=0")).toBeNull();
    expect(selectEncoding("GZIP")).toBe("gzip");
    expect(selectEncoding("br, zstd")).toBeNull();
  });
});

import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { PostedFormError, readPostedForm } from "./posted-form.server";

const URL_ = "http://localhost/upload";

/** A multipart request as a browser sends it (undici encodes the FormData). */
function multipart(form: FormData): Request {
  return new Request(URL_, { method: "POST", body: form });
}

/** A request whose body arrives in chunks of `size` bytes, as off a socket. */
async function chunked(request: Request, size: number): Promise<Request> {
  const body = new Uint8Array(await request.arrayBuffer());
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.slice(offset, offset + size));
      offset += size;
    },
  });
  return new Request(URL_, {
    method: "POST",
    headers: { "content-type": request.headers.get("content-type")! },
    body: stream,
    duplex: "half",
  } as RequestInit);
}

describe("readPostedForm", () => {
  it("reads text fields and a file's bytes and name, from a body in 64 KB chunks", async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const form = new FormData();
    form.append("intent", "upload");
    form.append("note", "Café — naïve ✓");
    form.append("file", new File([bytes], "résumé 2026.pdf", { type: "application/pdf" }));
    const posted = await readPostedForm(await chunked(multipart(form), 64 * 1024), {
      file: 10_000_000,
    });
    expect(posted.fields.get("intent")).toBe("upload");
    expect(posted.fields.get("note")).toBe("Café — naïve ✓");
    expect(posted.fields.get("file")).toBeNull();
    const file = posted.files.get("file");
    expect(file?.name).toBe("résumé 2026.pdf");
    expect(Buffer.from(file!.bytes).equals(bytes)).toBe(true);
  });

  it("keeps one byte over a file's limit, so its caller refuses it, and drops files it did not ask for", async () => {
    const form = new FormData();
    form.append("file", new File([randomBytes(5000)], "big.pdf"));
    form.append("other", new File([randomBytes(100)], "other.bin"));
    form.append("after", "still read");
    const posted = await readPostedForm(await chunked(multipart(form), 1000), { file: 1234 });
    expect(posted.files.get("file")?.bytes.byteLength).toBe(1235);
    expect(posted.files.has("other")).toBe(false);
    expect(posted.fields.get("after")).toBe("still read");
  });

  it("gives no bytes for a file input left empty", async () => {
    const form = new FormData();
    form.append("intent", "upload");
    form.append("file", new File([], ""));
    const posted = await readPostedForm(multipart(form), { file: 1000 });
    expect(posted.files.get("file")?.bytes.byteLength ?? 0).toBe(0);
    expect(posted.fields.get("intent")).toBe("upload");
  });

  it("reads a form that is not multipart as before", async () => {
    const request = new Request(URL_, {
      method: "POST",
      body: new URLSearchParams({ intent: "remove", name: "Ana Ní Bhriain" }),
    });
    const posted = await readPostedForm(request, { file: 1000 });
    expect(posted.fields.get("intent")).toBe("remove");
    expect(posted.fields.get("name")).toBe("Ana Ní Bhriain");
    expect(posted.files.size).toBe(0);
  });

  it("refuses a body that is not the form it claims to be", async () => {
    const cut = new Request(URL_, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 and then the body ends',
    });
    await expect(readPostedForm(cut, { file: 1000 })).rejects.toBeInstanceOf(PostedFormError);
    const json = new Request(URL_, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await expect(readPostedForm(json, {})).rejects.toBeInstanceOf(PostedFormError);
  });

  it("lets the event loop turn while it joins a large file, instead of one long copy", async () => {
    const form = new FormData();
    form.append("file", new File([randomBytes(10_000_000)], "cv.pdf"));
    const request = await chunked(multipart(form), 64 * 1024);
    let turns = 0;
    let running = true;
    const count = () => {
      turns += 1;
      if (running) setImmediate(count);
    };
    // Reading a body held in memory takes no turn of the loop (promises only): the turns
    // counted are the join's, one after each full slice of 1 MiB: 9 in 10 MB.
    const reading = readPostedForm(request, { file: 10_000_000 });
    setImmediate(count);
    const posted = await reading;
    running = false;
    expect(posted.files.get("file")?.bytes.byteLength).toBe(10_000_000);
    expect(turns).toBeGreaterThanOrEqual(9);
  });
});

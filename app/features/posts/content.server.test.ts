import { describe, expect, it } from "vitest";

import { readPostWrite } from "./content.server";

const post = (body: unknown, type = "application/json") =>
  readPostWrite(
    new Request("http://x/api/posts", {
      method: "POST",
      headers: { "content-type": type },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );

describe("readPostWrite", () => {
  it("accepts a post and sanitizes its content", async () => {
    expect(
      await post({ title: " T ", description: "d", content: "<p>a<script>x</script></p>" }),
    ).toEqual({
      ok: true,
      value: { title: "T", description: "d", content: "<p>a</p>", slug: null, tags: null },
    });
  });
  it("refuses another content type with 415", async () => {
    expect(await post("title=a", "application/x-www-form-urlencoded")).toMatchObject({
      ok: false,
      status: 415,
    });
  });
  it("refuses malformed JSON and invalid fields with 400 and a message", async () => {
    expect(await post("{nope")).toEqual({
      ok: false,
      status: 400,
      error: "The request body is not valid JSON.",
    });
    expect(await post({ title: "", content: "<p>x</p>" })).toEqual({
      ok: false,
      status: 400,
      error: "Title is required.",
    });
    expect(await post({ title: "t", content: "<p> </p>" })).toEqual({
      ok: false,
      status: 400,
      error: "Content is required.",
    });
    // Content that is nothing but markup the allowlist drops is empty once sanitized.
    expect(await post({ title: "t", content: "<script>alert(1)</script>" })).toEqual({
      ok: false,
      status: 400,
      error: "Content is required.",
    });
  });
  it("refuses content over 1 MB with 413", async () => {
    const content = `<p>${"x".repeat(1_000_001)}</p>`;
    expect(await post({ title: "t", content })).toEqual({
      ok: false,
      status: 413,
      error: "The content is larger than 1 MB.",
    });
  });
});

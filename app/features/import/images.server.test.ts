import { expect, test } from "vitest";

import { localFile } from "./images.server";

const files = new Map([
  ["posts/a/photo.webp", new Uint8Array([1])],
  ["posts/common/b c.png", new Uint8Array([2])],
  ["secret.png", new Uint8Array([3])],
]);
const local = { files, base: "posts/a" };

test("a relative image is found beside its post, or up the export's own folders", () => {
  expect(localFile("photo.webp", local)?.name).toBe("posts/a/photo.webp");
  expect(localFile("./photo.webp?v=2#top", local)?.name).toBe("posts/a/photo.webp");
  expect(localFile("../common/b%20c.png", local)?.name).toBe("posts/common/b c.png");
  expect(localFile("../../secret.png", local)?.name).toBe("secret.png");
});

test("addresses, paths leaving the export, bad escapes and missing files are not the export's", () => {
  for (const src of [
    "https://example.com/posts/a/photo.webp",
    "/posts/a/photo.webp",
    "//cdn.example.com/photo.webp",
    "data:image/png;base64,AAAA",
    "../../../etc/passwd",
    "%E0%A4%A.png",
    "missing.webp",
  ])
    expect(localFile(src, local), src).toBeNull();
  expect(localFile("photo.webp", undefined)).toBeNull();
});

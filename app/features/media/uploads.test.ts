import { describe, expect, it } from "vitest";

import { formatBytes } from "~/lib/format";
import { PHOTO_SIZE } from "~/features/site";
import {
  ANIMATION_MAX_PIXELS,
  mediaUrl,
  parseMediaFile,
  PHOTO_MAX_PIXELS,
  PHOTO_WIDTHS,
  PROCESSING_MAX_WAITING,
  PROCESSING_RETRY_MS,
  UPLOAD_ACCEPT,
  UPLOAD_LIMITS,
  UPLOAD_TEXT,
  uploadTooLargeText,
  uploadTypeText,
  isMediaImageSrc,
  isMediaImageSrcset,
} from "./uploads";

const hash = "0123456789abcdef".repeat(4);

describe("the upload texts", () => {
  it("say the limits the checks use", () => {
    expect(UPLOAD_LIMITS).toEqual({ photo: 5_000_000, cv: 10_000_000, image: 10_000_000 });
    expect(uploadTooLargeText("image")).toBe("The image is larger than 10 MB.");
    expect(UPLOAD_TEXT.imageTooManyPixels).toBe("The image is larger than 50 megapixels.");
    expect(uploadTooLargeText("photo")).toBe("The photo is larger than 5 MB.");
    expect(uploadTooLargeText("cv")).toBe("The CV is larger than 10 MB.");
    expect(PHOTO_MAX_PIXELS).toBe(50_000_000);
    expect(UPLOAD_TEXT.tooManyPixels).toBe("The photo is larger than 50 megapixels.");
  });

  it("say the animation limit and how long to wait when the server is busy", () => {
    expect(ANIMATION_MAX_PIXELS).toBe(25_000_000);
    expect(UPLOAD_TEXT.animationTooManyPixels).toBe(
      "The animation is larger than 25 megapixels over all its frames (frames × width × height): use fewer frames or smaller ones.",
    );
    expect([PROCESSING_MAX_WAITING, PROCESSING_RETRY_MS]).toEqual([4, 5000]);
    expect(UPLOAD_TEXT.busy).toBe(
      "The server is already processing 5 images: try again in 5 seconds.",
    );
  });

  it("follow the limits when they change", () => {
    for (const kind of ["photo", "cv", "image"] as const) {
      expect(uploadTooLargeText(kind)).toContain(formatBytes(UPLOAD_LIMITS[kind]));
    }
  });

  it("name the accepted types", () => {
    expect(uploadTypeText("photo")).toBe("The photo must be a JPEG, PNG or WebP image.");
    expect(uploadTypeText("cv")).toBe("The CV must be a PDF.");
    expect(UPLOAD_TEXT.svg).toBe("SVG images are not accepted: upload a JPEG, PNG or WebP.");
    expect(UPLOAD_TEXT.noFile).toBe("Choose a file to upload.");
    expect(uploadTypeText("image")).toBe("The image must be a JPEG, PNG, WebP or GIF image.");
    expect(UPLOAD_TEXT.imageSvg).toBe(
      "SVG images are not accepted: upload a JPEG, PNG, WebP or GIF.",
    );
  });

  it("offer the same types to the file picker", () => {
    expect(UPLOAD_ACCEPT.photo).toBe("image/jpeg,.jpg,.jpeg,image/png,.png,image/webp,.webp");
    expect(UPLOAD_ACCEPT.cv).toBe("application/pdf,.pdf");
    expect(UPLOAD_ACCEPT.image).toBe(
      "image/jpeg,.jpg,.jpeg,image/png,.png,image/webp,.webp,image/gif,.gif",
    );
  });
});

describe("the photo sizes", () => {
  it("start at the size the home page shows, then its 2× and 4×", () => {
    expect(PHOTO_WIDTHS[0]).toBe(PHOTO_SIZE);
    expect(PHOTO_WIDTHS).toEqual([160, 320, 640]);
  });
});

describe("media URLs", () => {
  it("name the hash and the extension of the stored type", () => {
    expect(mediaUrl(hash, "image/webp")).toBe(`/media/${hash}.webp`);
    expect(mediaUrl(hash, "image/jpeg")).toBe(`/media/${hash}.jpg`);
    expect(mediaUrl(hash, "image/png")).toBe(`/media/${hash}.png`);
    expect(mediaUrl(hash, "application/pdf")).toBe(`/media/${hash}.pdf`);
    expect(mediaUrl(hash, "image/gif")).toBe(`/media/${hash}.gif`);
  });

  it("are the only image URLs a post may show", () => {
    expect(isMediaImageSrc(`/media/${hash}.gif`)).toBe(true);
    expect(isMediaImageSrc(`/media/${hash}.pdf`)).toBe(false);
    expect(isMediaImageSrc(`https://x.example/media/${hash}.jpg`)).toBe(false);
    expect(isMediaImageSrc(`/media/${hash}.jpg#x`)).toBe(false);
    expect(isMediaImageSrcset(`/media/${hash}.webp 480w, /media/${hash}.webp  800w`)).toBe(true);
    expect(isMediaImageSrcset(`/media/${hash}.webp 2x`)).toBe(false);
    expect(isMediaImageSrcset(`/media/${hash}.webp 480w, data:image/png;base64,AA 9w`)).toBe(false);
  });

  it("read back into the hash and type they were made from", () => {
    for (const type of ["image/webp", "image/jpeg", "image/png", "application/pdf"] as const) {
      const file = mediaUrl(hash, type).slice("/media/".length);
      expect(parseMediaFile(file)).toEqual({ hash, contentType: type });
    }
  });

  it("are the only names read", () => {
    for (const file of [
      `${hash}.jpeg`,
      `${hash}.svg`,
      `${hash}.html`,
      `${hash}`,
      `${hash}.webp.html`,
      `${hash.toUpperCase()}.webp`,
      `${hash.slice(1)}.webp`,
      `${hash}0.webp`,
      `../${hash}.webp`,
      `${hash}.WEBP`,
      "",
    ]) {
      expect(parseMediaFile(file), file).toBeNull();
    }
  });
});

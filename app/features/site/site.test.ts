import { describe, expect, it } from "vitest";

import { siteConfig } from "~/site.config";

import {
  type StoredFiles,
  DEFAULT_CV_URL,
  DEFAULT_PHOTO_URL,
  PHOTO_SIZE,
  siteCvUrl,
  siteIdentity,
  sitePhoto,
  type SiteConfig,
} from "./site";

const minimal: SiteConfig = {
  name: "Jo Doe",
  title: "Backend Developer",
  location: "Dublin, Ireland",
  about: ["Hi."],
  email: "jo@example.com",
  socials: [],
  skills: [],
  tools: [],
};

const none: StoredFiles = { photo: null, cv: null };
const hashA = "a".repeat(64);
const hashB = "b".repeat(64);
const hashC = "c".repeat(64);
const uploaded: StoredFiles = {
  photo: {
    files: [
      { hash: hashA, type: "image/webp", width: 160, height: 160 },
      { hash: hashB, type: "image/webp", width: 320, height: 320 },
      { hash: hashC, type: "image/jpeg", width: 320, height: 320 },
    ],
  },
  cv: { hash: "d".repeat(64), size: 1234 },
};

describe("what the pages show of the owner", () => {
  it("defaults the photo and CV to files shipped in public/, with alt text from the name", () => {
    expect(sitePhoto(minimal, none, minimal)).toEqual({
      src: DEFAULT_PHOTO_URL,
      alt: "Portrait of Jo Doe",
    });
    expect(siteCvUrl(none, minimal)).toBe(DEFAULT_CV_URL);
    const identity = siteIdentity(minimal, none, minimal);
    expect(identity.description).toBe("Jo Doe, Backend Developer in Dublin, Ireland.");
    expect(identity.shareImage).toBe(DEFAULT_PHOTO_URL);
  });

  it("serves an uploaded photo in every width it was resized to, and its JPEG to share cards", () => {
    const photo = sitePhoto(minimal, uploaded, minimal);
    expect(photo.src).toBe(`/media/${hashA}.webp`);
    expect(photo.srcSet).toBe(`/media/${hashA}.webp 160w, /media/${hashB}.webp 320w`);
    expect(photo.sizes).toBe(`${PHOTO_SIZE}px`);
    expect(siteIdentity(minimal, uploaded, minimal).shareImage).toBe(`/media/${hashC}.jpg`);
    expect(siteCvUrl(uploaded, minimal)).toBe(`/media/${"d".repeat(64)}.pdf`);
  });

  it("lets a configured URL (a CDN) win over an upload", () => {
    const config = {
      photoUrl: "https://cdn.example.com/me.webp",
      cvUrl: "https://cdn.example.com/cv.pdf",
    };
    expect(sitePhoto(minimal, uploaded, config)).toEqual({
      src: "https://cdn.example.com/me.webp",
      alt: "Portrait of Jo Doe",
    });
    expect(siteIdentity(minimal, uploaded, config).shareImage).toBe(config.photoUrl);
    expect(siteCvUrl(uploaded, config)).toBe("https://cdn.example.com/cv.pdf");
  });

  it("seeds the original's profile, four skills, five tools and four social links", () => {
    expect(siteConfig.title).toBe("Backend Developer");
    expect(siteConfig.location).toBe("Dublin, Ireland");
    expect(siteConfig.skills.map((s) => s.name)).toEqual([
      "Backend Development",
      "Database Management",
      "Cloud Services",
      "Version Control",
    ]);
    expect(siteConfig.tools.map((t) => t.name)).toEqual([
      "Node.js",
      "Ruby",
      "Python",
      "Docker",
      "AWS",
    ]);
    expect(siteConfig.socials.map((s) => s.kind).sort()).toEqual([
      "code-hosting",
      "microblogging",
      "photo-sharing",
      "professional-network",
    ]);
    expect(siteConfig.about.join(" ")).toMatch(
      /five years[\s\S]*REST APIs[\s\S]*Node\.js, Ruby on Rails, PostgreSQL and Redis/,
    );
  });
});

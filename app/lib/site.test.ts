import { describe, expect, it } from "vitest";

import { site } from "~/site.config";

import { DEFAULT_CV_URL, DEFAULT_PHOTO_URL, resolveSite, type SiteConfig } from "./site";

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

describe("the site configuration", () => {
  it("defaults the photo and CV to files shipped in public/, with alt text from the name", () => {
    const resolved = resolveSite(minimal);
    expect(resolved.photoUrl).toBe(DEFAULT_PHOTO_URL);
    expect(resolved.cvUrl).toBe(DEFAULT_CV_URL);
    expect(resolved.photoAlt).toBe("Portrait of Jo Doe");
    expect(resolved.description).toBe("Jo Doe, Backend Developer in Dublin, Ireland.");
  });

  it("lets a URL (a CDN) override the photo and the CV", () => {
    const resolved = resolveSite({
      ...minimal,
      photoUrl: "https://cdn.example.com/me.webp",
      cvUrl: "https://cdn.example.com/cv.pdf",
    });
    expect(resolved.photoUrl).toBe("https://cdn.example.com/me.webp");
    expect(resolved.cvUrl).toBe("https://cdn.example.com/cv.pdf");
  });

  it("holds the original's profile, four skills, five tools and four social links", () => {
    expect(site.title).toBe("Backend Developer");
    expect(site.location).toBe("Dublin, Ireland");
    expect(site.skills.map((s) => s.name)).toEqual([
      "Backend Development",
      "Database Management",
      "Cloud Services",
      "Version Control",
    ]);
    expect(site.tools.map((t) => t.name)).toEqual(["Node.js", "Ruby", "Python", "Docker", "AWS"]);
    expect(site.socials.map((s) => s.kind).sort()).toEqual([
      "code-hosting",
      "microblogging",
      "photo-sharing",
      "professional-network",
    ]);
    expect(site.about.join(" ")).toMatch(
      /five years[\s\S]*REST APIs[\s\S]*Node\.js, Ruby on Rails, PostgreSQL and Redis/,
    );
    expect(site.about.join(" ")).toMatch(/CI\/CD, Docker and AWS[\s\S]*data analytics and AI/);
  });
});

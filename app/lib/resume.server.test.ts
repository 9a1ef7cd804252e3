import { createRequire } from "node:module";

import { describe, expect, it } from "vitest";

import { demoContent } from "../../content/demo";
import { siteConfig } from "~/site.config";

import { fromResume, toResume, validateResume } from "./resume.server";

const require = createRequire(import.meta.url);
const sample = require("@jsonresume/schema/sample.resume.json") as unknown;

const site = {
  profile: siteConfig,
  experiences: demoContent.experiences.map((e) => ({ ...e, currentJob: e.current })),
  education: demoContent.studies.map((s) => ({ ...s, currentlyStudying: s.current })),
  siteUrl: "https://alex.example",
  photoUrl: "https://alex.example/media/abc.jpg",
};

describe("JSON Resume", () => {
  it("exports a document the standard's schema accepts", () => {
    const resume = toResume(site);
    expect(validateResume(resume).ok).toBe(true);
    expect(resume.basics?.location).toEqual({ city: "Dublin", region: "Ireland" });
    expect(resume.work?.[0]).toEqual({
      name: "Liffey Systems",
      position: "Senior Backend Developer",
      startDate: "2023-03",
    });
    expect(resume.education?.[0]).toMatchObject({ studyType: "MSc", area: "Data Analytics" });
    expect(resume.skills?.at(-1)).toEqual({
      name: "Tools",
      keywords: ["Node.js", "Ruby", "Python", "Docker", "AWS"],
    });
  });

  it("round-trips: export, import, export gives the same document", () => {
    const first = toResume(site);
    const imported = fromResume(first);
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(imported.profile.skills.map((s) => s.icon)).toEqual([
      "server",
      "database",
      "cloud",
      "git-branch",
    ]);
    expect(imported.profile.tools.map((t) => t.icon)).toEqual([
      "nodejs",
      "ruby",
      "python",
      "docker",
      "aws",
    ]);
    const second = toResume({ ...site, ...imported });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it("imports the package's sample, naming what it does not keep", () => {
    const checked = validateResume(sample);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const imported = fromResume(checked.resume);
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(imported.profile.name).toBe("Richard Hendriks");
    expect(imported.profile.location).toBe("San Francisco, California");
    expect(imported.experiences[0]).toMatchObject({
      title: "CEO/President",
      company: "Pied Piper",
    });
    expect(imported.education[0]?.degree).toBe("Bachelor in Information Technology");
    expect(imported.ignored).toEqual(expect.arrayContaining(["basics.phone", "projects"]));
  });

  it("refuses a broken document with the paths of the failing fields", () => {
    const broken = {
      basics: { name: "X", email: "not-an-email" },
      work: [{ name: "A", position: "B", startDate: "2020" }, { startDate: "yesterday" }],
    };
    const checked = validateResume(broken);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.map((e) => e.path).sort()).toEqual(["basics.email", "work[1].startDate"]);
    expect(validateResume("text")).toEqual({
      ok: false,
      errors: [{ path: "(document)", message: "must be a JSON object" }],
    });
  });

  it("refuses a valid document the site cannot hold, naming the field", () => {
    const result = fromResume({
      basics: { name: "Jo", label: "Dev", email: "jo@example.com", summary: "Hi." },
      work: [{ name: "Acme", position: "Dev" }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContainEqual({
      path: "basics.location",
      message: "Location is required.",
    });
    expect(result.errors).toContainEqual({
      path: "work[0].startDate",
      message: "From is required.",
    });
  });

  it("imports a 50-entry résumé", () => {
    const big = toResume({
      ...site,
      experiences: Array.from({ length: 50 }, (_, i) => ({
        title: `Engineer ${i}`,
        company: `Company ${i}`,
        from: `${1970 + i}-01`,
        to: `${1970 + i}-12`,
        currentJob: false,
      })),
      education: Array.from({ length: 50 }, (_, i) => ({
        degree: `BSc in Topic ${i}`,
        institution: `University ${i}`,
        from: `${1970 + i}`,
        to: `${1971 + i}`,
        currentlyStudying: false,
      })),
    });
    const started = performance.now();
    const checked = validateResume(JSON.parse(JSON.stringify(big)));
    const imported = checked.ok ? fromResume(checked.resume) : checked;
    const ms = performance.now() - started;
    console.log(`50 + 50 entries: validated and read in ${ms.toFixed(1)} ms`);
    expect(imported.ok).toBe(true);
    if (imported.ok) expect(imported.experiences).toHaveLength(50);
  });
});

import sampleResume from "@jsonresume/schema/sample.resume.json";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { demoContent } from "../../../content/demo";
import { siteConfig } from "~/site.config";

import { SKILL_ICONS, SOCIAL_KINDS, TOOL_ICONS } from "./icon-set";
import {
  PROFILE_LIMITS,
  PROFILE_TEXT,
  profileSchema,
  tooManyText,
  type ProfileContent,
} from "./profile";
import { fromResume } from "./resume-import.server";
import {
  DOCUMENT_PATH,
  RESUME_ERROR_TEXT,
  RESUME_SCHEMA_URL,
  RESUME_VERSION,
  toResume,
  TOOLS_SKILL,
  validateResume,
  type ResumeContent,
  type ResumeDocument,
} from "./resume.server";
import { ENTRY_SCHEMAS } from "./timeline/entry-schema";
import type { EducationInput, ExperienceInput } from "./timeline/timeline";

const experienceSchema = ENTRY_SCHEMAS.experience;
const educationSchema = ENTRY_SCHEMAS.education;

const SITE_URL = "https://alex.example";
const PHOTO_URL = `${SITE_URL}/media/abc.jpg`;

/** The demo site: content/demo.ts's entries and app/site.config.ts's profile. */
const demo = {
  profile: siteConfig,
  experiences: demoContent.experiences,
  education: demoContent.education,
  siteUrl: SITE_URL,
  photoUrl: PHOTO_URL,
};

/** As the owner's browser does it: the export downloaded as text, and that text uploaded. */
const throughFile = (doc: ResumeDocument): unknown => JSON.parse(JSON.stringify(doc));

/** Export, check and import, then export again with the same site: the second document. */
function roundTrip(site: ResumeContent & { siteUrl: string; photoUrl: string | null }) {
  const first = toResume(site);
  const checked = validateResume(throughFile(first));
  if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.errors)}`);
  const imported = fromResume(checked.resume);
  if (!imported.ok) throw new Error(`not imported: ${JSON.stringify(imported.errors)}`);
  return { first, imported, second: toResume({ ...site, ...imported }) };
}

describe("the JSON Resume export", () => {
  it("writes the demo site as a document the standard's schema accepts", () => {
    const resume = toResume(demo);
    expect(validateResume(throughFile(resume))).toMatchObject({ ok: true });
    expect(resume.$schema).toBe(RESUME_SCHEMA_URL);
    expect(resume.basics).toMatchObject({
      name: "Alex Byrne",
      label: "Backend Developer",
      image: PHOTO_URL,
      email: "alex.byrne@example.com",
      url: `${SITE_URL}/`,
      summary: siteConfig.about.join("\n\n"),
      location: { city: "Dublin", region: "Ireland" },
    });
    expect(resume.basics?.profiles?.[3]).toEqual({
      network: "LinkedIn",
      username: "example",
      url: "https://www.linkedin.com/in/example",
    });
    expect(resume.work?.[0]).toEqual({
      name: "Liffey Systems",
      position: "Senior Backend Developer",
      startDate: "2023-03",
    });
    expect(resume.work?.[1]).toMatchObject({ startDate: "2021-01", endDate: "2023-02" });
    expect(resume.education?.[0]).toEqual({
      institution: "Dublin City College",
      studyType: "MSc",
      area: "Data Analytics",
      startDate: "2024-09",
    });
    expect(resume.skills?.at(-1)).toEqual({
      name: TOOLS_SKILL,
      keywords: ["Node.js", "Ruby", "Python", "Docker", "AWS"],
    });
    expect(resume.meta).toEqual({ canonical: `${SITE_URL}/resume.json`, version: RESUME_VERSION });
  });

  it("splits a location, a degree and a link only where the rules say", () => {
    const resume = toResume({
      ...demo,
      profile: {
        ...siteConfig,
        location: "Dublin",
        socials: [{ kind: "website", label: "Site", url: "https://alex.example" }],
        tools: [],
      },
      education: [{ ...demo.education[1]!, degree: "Diploma" }],
      experiences: [{ ...demo.experiences[1]!, from: "March 2021" }],
      photoUrl: null,
    });
    expect(resume.basics?.location).toEqual({ city: "Dublin" });
    expect(resume.basics?.profiles).toEqual([{ network: "Site", url: "https://alex.example" }]);
    expect(resume.basics).not.toHaveProperty("image");
    expect(resume.education?.[0]).not.toHaveProperty("area");
    expect(resume.education?.[0]?.studyType).toBe("Diploma");
    // A date the standard would refuse is left out rather than written.
    expect(resume.work?.[0]).toEqual({
      name: "Harbour Payments",
      position: "Backend Developer",
      endDate: "2023-02",
    });
    expect(resume.skills?.map((s) => s.name)).not.toContain(TOOLS_SKILL);
    const location = (text: string) =>
      toResume({ ...demo, profile: { ...siteConfig, location: text } }).basics?.location;
    expect(location(", Ireland")).toEqual({ city: ", Ireland" });
    expect(location("Dublin ,  Leinster, Ireland")).toEqual({
      city: "Dublin",
      region: "Leinster, Ireland",
    });
  });

  it("writes only documents the standard's schema accepts, whatever the input (fuzzed)", () => {
    fc.assert(
      fc.property(anyResumeInput, (input) => {
        const checked = validateResume(throughFile(toResume(input)));
        expect(checked.ok ? [] : checked.errors).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the JSON Resume import", () => {
  it("reads the package's sample, naming what it does not keep", () => {
    const checked = validateResume(sampleResume);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const imported = fromResume(checked.resume);
    if (!imported.ok) throw new Error(JSON.stringify(imported.errors));
    expect(imported.profile).toMatchObject({
      name: "Richard Hendriks",
      title: "Programmer",
      location: "San Francisco, California",
      email: "richard.hendriks@mail.com",
      socials: [
        { kind: "microblogging", label: "Twitter", url: "https://www.twitter.com" },
        {
          kind: "website",
          label: "SoundCloud",
          url: "https://soundcloud.example.com/dandymusicnl",
        },
      ],
      skills: [
        { name: "Web Development", icon: "globe" },
        { name: "Compression", icon: "code" },
      ],
      tools: [],
    });
    expect(imported.profile.about).toHaveLength(1);
    expect(imported.experiences).toEqual([
      {
        title: "CEO/President",
        company: "Pied Piper",
        from: "2013-12-01",
        to: "2014-12-01",
        current: false,
      },
    ]);
    expect(imported.education).toEqual([
      {
        degree: "Bachelor in Information Technology",
        institution: "University of Oklahoma",
        from: "2011-06-01",
        to: "2014-01-01",
        current: false,
      },
    ]);
    // The empty image is nothing to report; meta and $schema are the file's, not the owner's.
    expect(imported.ignored.toSorted()).toEqual(
      [
        "basics.phone",
        "basics.url",
        "basics.location.address",
        "basics.location.postalCode",
        "basics.location.countryCode",
        "basics.profiles[].username",
        "work[].location",
        "work[].description",
        "work[].url",
        "work[].summary",
        "work[].highlights",
        "volunteer",
        "education[].url",
        "education[].score",
        "education[].courses",
        "awards",
        "publications",
        "skills[].level",
        "skills[].keywords",
        "languages",
        "interests",
        "references",
        "projects",
      ].toSorted(),
    );
  });

  it("reads the summary and the location as the profile form would", () => {
    const site = toResume(demo);
    const read = (basics: ResumeDocument["basics"]) => {
      const imported = fromResume({ ...site, basics: { ...site.basics, ...basics } });
      if (!imported.ok) throw new Error(JSON.stringify(imported.errors));
      return imported.profile;
    };
    expect(read({ summary: "One\r\nline. \n\n  Two.\n \n\n" }).about).toEqual([
      "One line.",
      "Two.",
    ]);
    expect(read({ location: { region: " California " } }).location).toBe("California");
    expect(
      read({ location: { address: "1 Main St\nHinterhaus", countryCode: "US" } }).location,
    ).toBe("1 Main St, Hinterhaus");
    expect(read({ location: { countryCode: "IE" } }).location).toBe("IE");
  });

  it("refuses a broken document with the paths of exactly the failing fields", () => {
    const checked = validateResume({
      basics: { name: "Richard", email: "not-an-email", profiles: [{ url: "no address" }] },
      work: [{ name: "Hooli", startDate: "2012-01" }, { startDate: "yesterday" }],
      education: [{ endDate: 2014 }],
      skills: "everything",
    });
    expect(checked).toEqual({
      ok: false,
      errors: expect.arrayContaining([
        { path: "basics.email", message: PROFILE_TEXT.invalidEmail },
        { path: "work[1].startDate", message: PROFILE_TEXT.invalidDate },
        { path: "basics.profiles[0].url", message: RESUME_ERROR_TEXT.invalidUri },
        { path: "education[0].endDate", message: RESUME_ERROR_TEXT.wrongType("text") },
        { path: "skills", message: RESUME_ERROR_TEXT.wrongType("a list") },
      ]),
    });
    if (checked.ok) return;
    expect(checked.errors.map((e) => e.path).toSorted()).toEqual([
      "basics.email",
      "basics.profiles[0].url",
      "education[0].endDate",
      "skills",
      "work[1].startDate",
    ]);
    const stringBasics = validateResume({ basics: "Richard Hendriks", work: [] });
    expect(stringBasics).toEqual({
      ok: false,
      errors: [{ path: "basics", message: RESUME_ERROR_TEXT.wrongType("an object") }],
    });
    for (const top of ["text", null, [], 42, undefined]) {
      expect(validateResume(top)).toEqual({
        ok: false,
        errors: [{ path: DOCUMENT_PATH, message: RESUME_ERROR_TEXT.notObject }],
      });
    }
  });

  it("refuses a valid document the site cannot hold, naming the fields as the forms would", () => {
    const result = fromResume({
      basics: {
        label: "Dev",
        email: "jo@example.com",
        summary: "Hi.",
        location: { countryCode: "IE" },
        profiles: [{ url: "https://github.com/jo" }],
      },
      work: [{ name: "Acme", position: "Dev" }],
      education: [
        { area: "Physics", institution: "TU", startDate: "2020", endDate: "2019" },
        { institution: "TU", startDate: "2020" },
      ],
      skills: [
        { name: "Go" },
        { name: "tools", keywords: ["Go", " "] },
        { name: "x".repeat(PROFILE_LIMITS.shortText + 1) },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { path: "basics.name", message: `Name ${PROFILE_TEXT.required}` },
      { path: "basics.profiles[0].network", message: `Label ${PROFILE_TEXT.required}` },
      { path: "skills[2].name", message: `Skill must be at most 120 characters.` },
      { path: "skills[1].keywords[1]", message: `Tool ${PROFILE_TEXT.required}` },
      { path: "work[0].startDate", message: `From ${PROFILE_TEXT.required}` },
      { path: "education[0].endDate", message: `To ${PROFILE_TEXT.toBeforeFrom}` },
      { path: "education[1].studyType", message: `Degree ${PROFILE_TEXT.required}` },
    ]);
  });

  it("holds an import to the forms' limits on lists", () => {
    const site = toResume(demo);
    const job = site.work![1]!;
    const result = fromResume({
      ...site,
      basics: {
        ...site.basics,
        profiles: Array.from({ length: PROFILE_LIMITS.socials + 1 }, () => ({
          network: "Site",
          url: SITE_URL,
        })),
      },
      work: Array.from({ length: PROFILE_LIMITS.entries + 1 }, () => job),
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        { path: "basics.profiles", message: tooManyText(PROFILE_LIMITS.socials, "links") },
        { path: "work", message: tooManyText(PROFILE_LIMITS.entries, "work entries") },
      ],
    });
  });

  it("keeps a skill named Tools apart from the tools, and names odd sections safely", () => {
    const site = toResume({
      ...demo,
      profile: { ...siteConfig, skills: [{ name: "tools", icon: "wrench" }] },
    });
    expect(site.skills).toEqual([
      { name: "tools" },
      { name: TOOLS_SKILL, keywords: ["Node.js", "Ruby", "Python", "Docker", "AWS"] },
    ]);
    // JSON.parse makes "__proto__" an own member, like "toString": each is just a section.
    const doc = JSON.parse(
      JSON.stringify({ ...site, toString: ["x"], constructor: { a: 1 } }).replace(
        /^\{/,
        '{"__proto__":{"polluted":true},',
      ),
    ) as unknown;
    const checked = validateResume(doc);
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const imported = fromResume(checked.resume);
    if (!imported.ok) throw new Error(JSON.stringify(imported.errors));
    expect(imported.profile.skills).toEqual([{ name: "tools", icon: "code" }]);
    expect(imported.profile.tools.map((t) => t.name)).toEqual(siteConfig.tools.map((t) => t.name));
    expect(imported.ignored.toSorted()).toEqual(
      ["__proto__", "basics.image", "basics.url", "constructor", "toString"].toSorted(),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("imports a 50-entry résumé (50 work, 50 education) and reports the time taken", () => {
    const big = toResume({
      ...demo,
      experiences: Array.from({ length: 50 }, (_, i) => ({
        title: `Engineer ${i}`,
        company: `Company ${i}`,
        from: `${1970 + i}-01`,
        to: `${1970 + i}-12`,
        current: false,
      })),
      education: Array.from({ length: 50 }, (_, i) => ({
        degree: `BSc in Topic ${i}`,
        institution: `University ${i}`,
        from: `${1970 + i}`,
        to: `${1971 + i}`,
        current: false,
      })),
    });
    const text = JSON.stringify(big, null, 2);
    const started = performance.now();
    const checked = validateResume(JSON.parse(text));
    const imported = checked.ok ? fromResume(checked.resume) : checked;
    const ms = performance.now() - started;
    console.log(
      `50 work + 50 education entries (${text.length} bytes): parsed, validated and imported in ${ms.toFixed(1)} ms`,
    );
    if (!imported.ok) throw new Error(JSON.stringify(imported.errors));
    expect(imported.experiences).toHaveLength(50);
    expect(imported.education[49]?.degree).toBe("BSc in Topic 49");
  });
});

describe("the round trip: export, import, export", () => {
  it("gives back the demo site's document, byte for byte, and its icons", () => {
    const { first, imported, second } = roundTrip(demo);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(imported.profile.skills).toEqual(siteConfig.skills);
    expect(imported.profile.tools).toEqual(siteConfig.tools);
    expect(imported.profile.socials).toEqual(siteConfig.socials);
    expect(imported.experiences).toEqual(demo.experiences);
    expect(imported.education).toEqual(demo.education);
    // What the export writes and the import cannot keep: the photo and the site's address.
    expect(imported.ignored).toEqual(["basics.image", "basics.url"]);
  });

  it("gives back the same document for any résumé the forms accept (fuzzed)", () => {
    fc.assert(
      fc.property(validResumeInput, (input) => {
        const { first, second } = roundTrip(input);
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Generators

const pad = (n: number) => String(n).padStart(2, "0");
/** YYYY, YYYY-MM or YYYY-MM-DD, as the forms take them. */
const partialDate = fc
  .tuple(
    fc.integer({ min: 1000, max: 2999 }),
    fc.option(fc.integer({ min: 1, max: 12 })),
    fc.option(fc.integer({ min: 1, max: 31 })),
  )
  .map(([y, m, d]) =>
    m === null ? `${y}` : d === null ? `${y}-${pad(m)}` : `${y}-${pad(m)}-${pad(d)}`,
  );

/** ASCII and the whole of Unicode, whitespace and commas included. */
const anyText = (maxLength: number) =>
  fc.oneof(fc.string({ maxLength }), fc.string({ unit: "binary", maxLength }));

const keys = <T extends string>(record: Record<T, string>) => Object.keys(record) as T[];
const skillIcon = fc.constantFrom(...keys(SKILL_ICONS));
const toolIcon = fc.constantFrom(...keys(TOOL_ICONS));
const socialKind = fc.constantFrom(...keys(SOCIAL_KINDS));
const anyUrl = fc.oneof(
  fc.webUrl(),
  anyText(40),
  anyText(20).map((s) => `https://x.example/${s}`),
);

/** Anything the types allow, checked by no form: the export must still be valid. */
const anyResumeInput = fc.record({
  profile: fc.record({
    name: anyText(40),
    title: anyText(40),
    location: anyText(40),
    email: fc.oneof(
      fc.emailAddress(),
      anyText(40),
      anyText(10).map((s) => `${s}@ü.example`),
    ),
    about: fc.array(anyText(80), { maxLength: 4 }),
    socials: fc.array(fc.record({ kind: socialKind, label: anyText(20), url: anyUrl }), {
      maxLength: 4,
    }),
    skills: fc.array(fc.record({ name: anyText(20), icon: skillIcon }), { maxLength: 4 }),
    tools: fc.array(fc.record({ name: anyText(20), icon: toolIcon }), { maxLength: 4 }),
  }),
  experiences: fc.array(
    fc.record({
      title: anyText(20),
      company: anyText(20),
      from: fc.oneof(partialDate, anyText(12)),
      to: fc.option(fc.oneof(partialDate, anyText(12))),
      current: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  education: fc.array(
    fc.record({
      degree: anyText(30),
      institution: anyText(20),
      from: fc.oneof(partialDate, anyText(12)),
      to: fc.option(fc.oneof(partialDate, anyText(12))),
      current: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  siteUrl: fc.oneof(fc.webUrl(), anyText(30)),
  photoUrl: fc.option(fc.oneof(fc.webUrl(), anyText(30))),
}) satisfies fc.Arbitrary<ResumeContent & { siteUrl: string; photoUrl: string | null }>;

/** One line of text the forms take: trimmed, not empty, no NUL. */
const field = (maxLength: number) =>
  anyText(maxLength)
    .map((s) => s.trim())
    .filter((s) => s !== "" && !s.includes("\0"));
/** A paragraph as the About form leaves one: no line breaks. */
const paragraph = field(120)
  .map((s) => s.replace(/[\r\n]+/g, " ").trim())
  .filter(Boolean);
/** Commas anywhere, the edge cases too: ", Ireland", "Dublin,", "a, b, c". */
const location = fc.oneof(
  field(30),
  fc.tuple(field(30), field(30)).map(([a, b]) => `${a}, ${b}`),
  fc.tuple(field(20), field(20), field(20)).map((parts) => parts.join(",")),
  field(30).map((s) => `, ${s}`),
  field(30).map((s) => `${s},`),
);
const degree = fc.oneof(
  field(30),
  fc.tuple(field(20), field(30)).map(([type, area]) => `${type} in ${area}`),
);
/** From ≤ To at the precision both have, as the forms insist. */
const period = fc
  .tuple(partialDate, partialDate, fc.boolean())
  .map(([a, b, ongoing]) => ({ from: a < b ? a : b, to: ongoing ? null : a < b ? b : a, ongoing }));
const formUrl = fc.oneof(
  fc.webUrl({ validSchemes: ["https", "http"] }),
  field(20).map((s) => `https://x.example/${s}`),
);

const parsed = <T>(result: { success: true; data: T } | { success: false }) =>
  result.success ? [result.data] : [];

/** A résumé that the forms accept (through their schemas), within their limits. */
const validResumeInput = fc
  .record({
    profile: fc.record({
      name: field(40),
      title: field(40),
      location,
      email: fc.emailAddress(),
      about: fc.array(paragraph, { minLength: 1, maxLength: PROFILE_LIMITS.aboutParagraphs }),
      socials: fc.array(fc.record({ kind: socialKind, label: field(30), url: formUrl }), {
        maxLength: PROFILE_LIMITS.socials,
      }),
      skills: fc.array(
        fc.record({
          name: fc.oneof(field(30), fc.constantFrom(TOOLS_SKILL, "tools", "Backend APIs")),
          icon: skillIcon,
        }),
        { maxLength: PROFILE_LIMITS.skills },
      ),
      tools: fc.array(fc.record({ name: field(30), icon: toolIcon }), {
        maxLength: PROFILE_LIMITS.tools,
      }),
    }),
    experiences: fc.array(
      fc.record({ title: field(40), company: field(40), period }).map(({ period: p, ...e }) => ({
        ...e,
        from: p.from,
        to: p.to ?? "",
        current: p.ongoing,
      })),
      { maxLength: 12 },
    ),
    education: fc.array(
      fc.record({ degree, institution: field(40), period }).map(({ period: p, ...e }) => ({
        ...e,
        from: p.from,
        to: p.to ?? "",
        current: p.ongoing,
      })),
      { maxLength: 12 },
    ),
    siteUrl: fc.constant(SITE_URL),
    photoUrl: fc.option(fc.constant(PHOTO_URL)),
  })
  .map(({ profile, experiences, education, ...site }) => {
    const content = {
      profile: parsed(profileSchema.safeParse(profile)),
      experiences: experiences.flatMap((e) => parsed(experienceSchema.safeParse(e))),
      education: education.flatMap((e) => parsed(educationSchema.safeParse(e))),
    };
    return { content, site, sizes: [experiences.length, education.length] };
  })
  .filter(
    ({ content, sizes }) =>
      content.profile.length === 1 &&
      content.experiences.length === sizes[0] &&
      content.education.length === sizes[1],
  )
  .map(({ content, site }) => ({
    ...site,
    profile: content.profile[0] as ProfileContent,
    experiences: content.experiences as ExperienceInput[],
    education: content.education as EducationInput[],
  }));

import { createRequire } from "node:module";

import { Validator, type Schema } from "jsonschema";
import type { z } from "zod";

import { socialKindFor, toolIconFor, type SkillIcon } from "./icon-set";
import {
  educationSchema,
  experienceSchema,
  PARTIAL_DATE,
  profileSchema,
  type EducationInput,
  type ExperienceInput,
  type ProfileContent,
} from "./profile";

/**
 * The résumé as a JSON Resume document (https://jsonresume.org), written and read here, and
 * checked against the standard's own schema with the validator its package uses.
 */

const require = createRequire(import.meta.url);
const RESUME_SCHEMA = require("@jsonresume/schema/schema.json") as Schema;

export type ResumeDocument = {
  $schema?: string;
  basics?: {
    name?: string;
    label?: string;
    image?: string;
    email?: string;
    url?: string;
    summary?: string;
    location?: { address?: string; city?: string; region?: string; countryCode?: string };
    profiles?: { network?: string; username?: string; url?: string }[];
    [extra: string]: unknown;
  };
  work?: {
    name?: string;
    position?: string;
    startDate?: string;
    endDate?: string;
    [extra: string]: unknown;
  }[];
  education?: {
    institution?: string;
    area?: string;
    studyType?: string;
    startDate?: string;
    endDate?: string;
    [extra: string]: unknown;
  }[];
  skills?: { name?: string; keywords?: string[]; [extra: string]: unknown }[];
  meta?: { canonical?: string; version?: string; [extra: string]: unknown };
  [extra: string]: unknown;
};

export type ResumeError = { path: string; message: string };

/** Tools travel as one skill of this name, with the tools as its keywords. */
const TOOLS_SKILL = "Tools";
const DEGREE_JOIN = " in ";

const SCHEMA_URL = "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json";

const date = (value: string | null) =>
  value !== null && PARTIAL_DATE.test(value) ? value : undefined;

/** Drops undefined members, so the document is the same however it was built. */
const compact = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

export function toResume(input: {
  profile: ProfileContent;
  experiences: ExperienceInput[];
  education: EducationInput[];
  siteUrl: string;
  photoUrl: string | null;
}): ResumeDocument {
  const { profile, siteUrl } = input;
  const comma = profile.location.indexOf(",");
  const location =
    comma < 0
      ? { city: profile.location }
      : {
          city: profile.location.slice(0, comma).trim(),
          region: profile.location.slice(comma + 1).trim(),
        };
  const skills: NonNullable<ResumeDocument["skills"]> = profile.skills.map((s) => ({
    name: s.name,
  }));
  if (profile.tools.length > 0) {
    skills.push({ name: TOOLS_SKILL, keywords: profile.tools.map((t) => t.name) });
  }
  return {
    $schema: SCHEMA_URL,
    basics: compact({
      name: profile.name,
      label: profile.title,
      image: input.photoUrl ?? undefined,
      email: profile.email,
      url: `${siteUrl}/`,
      summary: profile.about.join("\n\n"),
      location,
      profiles: profile.socials.map((s) =>
        compact({ network: s.label, username: usernameOf(s.url), url: s.url }),
      ),
    }),
    work: input.experiences.map((e) =>
      compact({
        name: e.company,
        position: e.title,
        startDate: date(e.from),
        endDate: e.currentJob ? undefined : date(e.to),
      }),
    ),
    education: input.education.map((e) => {
      const at = e.degree.indexOf(DEGREE_JOIN);
      return compact({
        institution: e.institution,
        studyType: at < 0 ? e.degree : e.degree.slice(0, at),
        area: at < 0 ? undefined : e.degree.slice(at + DEGREE_JOIN.length),
        startDate: date(e.from),
        endDate: e.currentlyStudying ? undefined : date(e.to),
      });
    }),
    skills,
    meta: { canonical: `${siteUrl}/resume.json`, version: "v1.0.0" },
  };
}

function usernameOf(url: string): string | undefined {
  try {
    const segments = new URL(url).pathname.split("/").filter(Boolean);
    return segments.at(-1);
  } catch {
    return undefined;
  }
}

/** "instance.work[2].startDate" → "work[2].startDate"; the top level is "(document)". */
const pathOf = (property: string) => property.replace(/^instance\.?/, "") || "(document)";

export function validateResume(
  doc: unknown,
): { ok: true; resume: ResumeDocument } | { ok: false; errors: ResumeError[] } {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    return { ok: false, errors: [{ path: "(document)", message: "must be a JSON object" }] };
  }
  const result = new Validator().validate(doc, RESUME_SCHEMA);
  if (result.valid) return { ok: true, resume: doc as ResumeDocument };
  return {
    ok: false,
    errors: result.errors.map((e) => ({ path: pathOf(e.property), message: e.message })),
  };
}

/** A skill's icon from its name: a few words developers use, or a code glyph. */
function skillIconFor(name: string): SkillIcon {
  const rules: [RegExp, SkillIcon][] = [
    [/backend|server|api/i, "server"],
    [/data|sql|database/i, "database"],
    [/cloud|aws|devops|infra/i, "cloud"],
    [/git|version/i, "git-branch"],
    [/secur/i, "shield"],
    [/mobile|phone|ios|android/i, "smartphone"],
    [/web|front/i, "globe"],
    [/ai|machine learning|\bml\b/i, "bot"],
  ];
  return rules.find(([pattern]) => pattern.test(name))?.[1] ?? "code";
}

/** What the site keeps of each section; the rest of a document is listed as not imported. */
const KEPT: Record<string, readonly string[] | true> = {
  $schema: true,
  meta: true,
  basics: ["name", "label", "email", "summary", "location", "profiles", "image", "url"],
  work: ["name", "position", "startDate", "endDate"],
  education: ["institution", "area", "studyType", "startDate", "endDate"],
  skills: ["name", "keywords"],
};

function ignoredParts(resume: ResumeDocument): string[] {
  const ignored = new Set<string>();
  for (const [section, value] of Object.entries(resume)) {
    const kept = KEPT[section];
    if (kept === true) continue;
    const empty = value === undefined || (Array.isArray(value) && value.length === 0);
    if (!kept) {
      if (!empty) ignored.add(section);
      continue;
    }
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item !== "object" || item === null) continue;
      for (const key of Object.keys(item)) {
        if (!kept.includes(key))
          ignored.add(Array.isArray(value) ? `${section}[].${key}` : `${section}.${key}`);
      }
    }
  }
  if (
    resume.skills?.some(
      (s) => s.name?.toLowerCase() !== TOOLS_SKILL.toLowerCase() && s.keywords?.length,
    )
  ) {
    ignored.add("skills[].keywords");
  }
  return [...ignored];
}

/** zod's path in the site's shape → the document's path. */
function resumePath(section: "basics" | "work" | "education", path: PropertyKey[]): string {
  const names: Record<string, string> = {
    name: "basics.name",
    title: "basics.label",
    location: "basics.location",
    email: "basics.email",
    about: "basics.summary",
    socials: "basics.profiles",
    skills: "skills",
    tools: "skills",
  };
  if (section === "basics") {
    const [first, index, field] = path.map(String);
    if (first === "socials" && index !== undefined) {
      const map: Record<string, string> = { label: "network", url: "url", kind: "url" };
      return `basics.profiles[${index}]${field ? `.${map[field] ?? field}` : ""}`;
    }
    return names[first ?? ""] ?? `basics.${first}`;
  }
  const [index, field] = path.map(String);
  const fields: Record<string, string> =
    section === "work"
      ? { title: "position", company: "name", from: "startDate", to: "endDate" }
      : { degree: "studyType", institution: "institution", from: "startDate", to: "endDate" };
  return `${section}[${index}]${field ? `.${fields[field] ?? field}` : ""}`;
}

const issuesOf = (
  section: "basics" | "work" | "education",
  error: z.ZodError,
  prefix: PropertyKey[] = [],
): ResumeError[] =>
  error.issues.map((issue) => ({
    path: resumePath(section, [...prefix, ...issue.path]),
    message: issue.message,
  }));

export function fromResume(resume: ResumeDocument):
  | {
      ok: true;
      profile: ProfileContent;
      experiences: ExperienceInput[];
      education: EducationInput[];
      ignored: string[];
    }
  | { ok: false; errors: ResumeError[] } {
  const basics = resume.basics ?? {};
  const place = basics.location ?? {};
  const location =
    [place.city, place.region].filter((p) => p && p.trim()).join(", ") ||
    place.address ||
    place.countryCode ||
    "";
  const toolsEntry = resume.skills?.find(
    (s) => s.name?.toLowerCase() === TOOLS_SKILL.toLowerCase(),
  );
  const errors: ResumeError[] = [];
  const profile = profileSchema.safeParse({
    name: basics.name ?? "",
    title: basics.label ?? "",
    location,
    email: basics.email ?? "",
    about: (basics.summary ?? "")
      .split(/\r?\n\s*\r?\n/)
      .map((p) => p.trim())
      .filter(Boolean),
    socials: (basics.profiles ?? []).map((p) => ({
      kind: socialKindFor(p.network ?? "", p.url ?? ""),
      label: p.network ?? "",
      url: p.url ?? "",
    })),
    skills: (resume.skills ?? [])
      .filter((s) => s !== toolsEntry)
      .map((s) => ({ name: s.name ?? "", icon: skillIconFor(s.name ?? "") })),
    tools: (toolsEntry?.keywords ?? []).map((name) => ({ name, icon: toolIconFor(name) })),
  });
  if (!profile.success) errors.push(...issuesOf("basics", profile.error));

  const experiences: ExperienceInput[] = [];
  for (const [i, w] of (resume.work ?? []).entries()) {
    const parsed = experienceSchema.safeParse({
      title: w.position ?? "",
      company: w.name ?? "",
      from: w.startDate ?? "",
      to: w.endDate ?? "",
      currentJob: !w.endDate,
    });
    if (parsed.success) experiences.push(parsed.data);
    else errors.push(...issuesOf("work", parsed.error, [i]));
  }
  const education: EducationInput[] = [];
  for (const [i, e] of (resume.education ?? []).entries()) {
    const degree = [e.studyType, e.area].filter((p) => p && p.trim()).join(DEGREE_JOIN);
    const parsed = educationSchema.safeParse({
      degree,
      institution: e.institution ?? "",
      from: e.startDate ?? "",
      to: e.endDate ?? "",
      currentlyStudying: !e.endDate,
    });
    if (parsed.success) education.push(parsed.data);
    else errors.push(...issuesOf("education", parsed.error, [i]));
  }
  if (!profile.success || errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    profile: profile.data as ProfileContent,
    experiences,
    education,
    ignored: ignoredParts(resume),
  };
}

/**
 * The owner's import of a JSON Resume document (checked first by validateResume in
 * ./resume.server): every field through the forms' zod schemas, errors at the document's paths,
 * and on success the parts of the document the site has no place for, named.
 */

import type { z } from "zod";

import { socialKindFor, toolIconFor, type SkillIcon } from "./icon-set";
import { PROFILE_LIMITS, profileSchema, splitParagraphs, tooManyText } from "./profile";
import {
  DEGREE_JOIN,
  isRecord,
  LOCATION_JOIN,
  TOOLS_SKILL,
  usernameOf,
  type ResumeDocument,
  type ResumeError,
  type ResumeImport,
  type ResumeLocation,
  type ResumeSkill,
} from "./resume.server";
import { ENTRY_SCHEMAS } from "./timeline/entry-schema";
import type { EducationInput, ExperienceInput } from "./timeline/timeline";

/** An address's lines join into one location. */
const LINE_BREAK = /\s*\r?\n\s*/g;

/** A skill's icon from words in its name (the standard has no icons); the first match wins. */
const SKILL_ICON_WORDS: readonly [RegExp, SkillIcon][] = [
  [/back[- ]?end|server|\bapis?\b/i, "server"],
  [/data|sql/i, "database"],
  [/cloud|\baws\b|devops|infra/i, "cloud"],
  [/\bgit|version/i, "git-branch"],
  [/secur/i, "shield"],
  [/mobile|\bios\b|android/i, "smartphone"],
  [/\bweb\b|front[- ]?end/i, "globe"],
  [/\bai\b|\bml\b|machine learning/i, "bot"],
];
const DEFAULT_SKILL_ICON: SkillIcon = "code";

const skillIconFor = (name: string): SkillIcon =>
  SKILL_ICON_WORDS.find(([words]) => words.test(name))?.[1] ?? DEFAULT_SKILL_ICON;

const hasText = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== "";

/** The location's text, and which of the document's location fields it was made from. */
function readLocation(place: ResumeLocation): { text: string; used: string[] } {
  const parts = (["city", "region"] as const).filter((key) => hasText(place[key]));
  if (parts.length > 0) {
    return { text: parts.map((key) => place[key]?.trim()).join(LOCATION_JOIN), used: parts };
  }
  if (hasText(place.address)) {
    return { text: place.address.trim().replace(LINE_BREAK, LOCATION_JOIN), used: ["address"] };
  }
  if (hasText(place.countryCode)) return { text: place.countryCode, used: ["countryCode"] };
  return { text: "", used: [] };
}

/**
 * The skill that holds the tools: named TOOLS_SKILL and with keywords (the export writes none
 * for a skill of that name, so an owner's own "Tools" skill comes back as a skill).
 */
const isToolsSkill = (skill: ResumeSkill) =>
  skill.name?.trim().toLowerCase() === TOOLS_SKILL.toLowerCase() && Array.isArray(skill.keywords);

/** A profile field's path in the document. */
const BASICS_PATHS: Record<string, string> = {
  name: "basics.name",
  title: "basics.label",
  location: "basics.location",
  email: "basics.email",
  about: "basics.summary",
  socials: "basics.profiles",
};
const PROFILE_FIELDS: Record<string, string> = { label: "network", url: "url" };
const WORK_FIELDS: Record<string, string> = {
  title: "position",
  company: "name",
  from: "startDate",
  to: "endDate",
};
const EDUCATION_FIELDS: Record<string, string> = {
  institution: "institution",
  from: "startDate",
  to: "endDate",
};

type Path = readonly PropertyKey[];

/** The document's path for a profile field's zod path ("skills.1.name" → "skills[3].name"). */
function profilePath(path: Path, skillIndexes: number[], toolsIndex: number): string {
  const [field, index, member] = path;
  const at = typeof index === "number" ? index : undefined;
  if (field === "socials" && at !== undefined) {
    const key = typeof member === "string" ? PROFILE_FIELDS[member] : undefined;
    return `basics.profiles[${at}]${key ? `.${key}` : ""}`;
  }
  if (field === "skills") return at === undefined ? "skills" : `skills[${skillIndexes[at]}].name`;
  if (field === "tools") {
    return `skills[${toolsIndex}].keywords${at === undefined ? "" : `[${at}]`}`;
  }
  return BASICS_PATHS[String(field)] ?? `basics.${String(field)}`;
}

function entryPath(section: string, index: number, path: Path, fields: Record<string, string>) {
  const field = typeof path[0] === "string" ? fields[path[0]] : undefined;
  return `${section}[${index}]${field ? `.${field}` : ""}`;
}

/**
 * The first message for each field, as the forms show them (fieldErrors): an empty From is
 * "From is required.", not also "Enter a date…".
 */
function errorsOf(error: z.ZodError, pathOf: (path: Path) => string): ResumeError[] {
  const errors = new Map<string, string>();
  for (const issue of error.issues) {
    const path = pathOf(issue.path);
    if (!errors.has(path)) errors.set(path, issue.message);
  }
  return [...errors].map(([path, message]) => ({ path, message }));
}

/** "work" beyond PROFILE_LIMITS.entries: the forms let no more be added. */
function tooMany(section: string, count: number, noun: string): ResumeError[] {
  return count > PROFILE_LIMITS.entries
    ? [{ path: section, message: tooManyText(PROFILE_LIMITS.entries, noun) }]
    : [];
}

/** Members with nothing in them are not worth naming as not imported. */
const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === "" ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);

/** The document's own metadata, rewritten by every export: nothing of the owner's. */
const METADATA = new Set(["$schema", "meta"]);
/** The members of each section the import reads (skills' keywords: the tools' alone). */
const KEPT: Record<string, ReadonlySet<string>> = {
  basics: new Set(["name", "label", "email", "summary", "location", "profiles"]),
  work: new Set(["name", "position", "startDate", "endDate"]),
  education: new Set(["institution", "studyType", "area", "startDate", "endDate"]),
  skills: new Set(["name"]),
};

/** The parts of a document the import does not keep, by section ("work[].highlights"). */
function ignoredParts(
  resume: ResumeDocument,
  locationUsed: string[],
  toolsSkill: ResumeSkill | undefined,
): string[] {
  const ignored = new Set<string>();
  const members = (value: unknown) =>
    isRecord(value) ? Object.entries(value).filter(([, member]) => !isEmpty(member)) : [];
  // Own keys only, and looked up with Object.hasOwn: "toString" or "__proto__" is a section
  // like any other.
  for (const [section, value] of members(resume)) {
    if (METADATA.has(section)) continue;
    const kept = Object.hasOwn(KEPT, section) ? KEPT[section] : undefined;
    if (kept === undefined) {
      ignored.add(section);
      continue;
    }
    const items = Array.isArray(value) ? value : [value];
    const prefix = Array.isArray(value) ? `${section}[]` : section;
    for (const item of items) {
      for (const [key] of members(item)) {
        const keptHere = kept.has(key) || (key === "keywords" && item === toolsSkill);
        if (!keptHere) ignored.add(`${prefix}.${key}`);
      }
    }
  }
  for (const [key] of members(resume.basics?.location)) {
    if (!locationUsed.includes(key)) ignored.add(`basics.location.${key}`);
  }
  for (const profile of resume.basics?.profiles ?? []) {
    for (const [key, value] of members(profile)) {
      // The username is written from the address: one that says something else is lost.
      const kept =
        key === "network" ||
        key === "url" ||
        (key === "username" && value === usernameOf(profile.url ?? ""));
      if (!kept) ignored.add(`basics.profiles[].${key}`);
    }
  }
  return [...ignored];
}

/**
 * A checked document (validateResume) as the site's résumé: every field through the forms'
 * schemas, errors at the document's paths; on success, what was not kept is listed.
 */
export function fromResume(resume: ResumeDocument): ResumeImport {
  const basics = resume.basics ?? {};
  const location = readLocation(basics.location ?? {});
  const skills = resume.skills ?? [];
  const toolsIndex = skills.findIndex(isToolsSkill);
  const skillIndexes = skills.flatMap((_, i) => (i === toolsIndex ? [] : [i]));

  const profile = profileSchema.safeParse({
    name: basics.name ?? "",
    title: basics.label ?? "",
    location: location.text,
    email: basics.email ?? "",
    about: splitParagraphs(basics.summary ?? ""),
    socials: (basics.profiles ?? []).map((p) => ({
      kind: socialKindFor(p.network ?? "", p.url ?? ""),
      label: p.network ?? "",
      url: p.url ?? "",
    })),
    skills: skillIndexes.map((i) => {
      const name = skills[i]?.name ?? "";
      return { name, icon: skillIconFor(name) };
    }),
    tools: (skills[toolsIndex]?.keywords ?? []).map((name) => ({ name, icon: toolIconFor(name) })),
  });
  const errors: ResumeError[] = profile.success
    ? []
    : errorsOf(profile.error, (path) => profilePath(path, skillIndexes, toolsIndex));

  const work = resume.work ?? [];
  errors.push(...tooMany("work", work.length, "work entries"));
  const experiences: ExperienceInput[] = [];
  for (const [i, job] of work.entries()) {
    const parsed = ENTRY_SCHEMAS.experience.safeParse({
      title: job.position ?? "",
      company: job.name ?? "",
      from: job.startDate ?? "",
      to: job.endDate ?? "",
      current: !hasText(job.endDate),
    });
    if (parsed.success) experiences.push(parsed.data);
    else errors.push(...errorsOf(parsed.error, (path) => entryPath("work", i, path, WORK_FIELDS)));
  }

  const educationEntries = resume.education ?? [];
  errors.push(...tooMany("education", educationEntries.length, "education entries"));
  const education: EducationInput[] = [];
  for (const [i, entry] of educationEntries.entries()) {
    const parts = [entry.studyType, entry.area].filter(hasText);
    const parsed = ENTRY_SCHEMAS.education.safeParse({
      degree: parts.join(DEGREE_JOIN),
      institution: entry.institution ?? "",
      from: entry.startDate ?? "",
      to: entry.endDate ?? "",
      current: !hasText(entry.endDate),
    });
    // The degree is made of two fields: point at the one that is there.
    const degreeField = hasText(entry.studyType) || !hasText(entry.area) ? "studyType" : "area";
    const fields = { ...EDUCATION_FIELDS, degree: degreeField };
    if (parsed.success) education.push(parsed.data);
    else errors.push(...errorsOf(parsed.error, (path) => entryPath("education", i, path, fields)));
  }

  if (!profile.success || errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    profile: profile.data,
    experiences,
    education,
    ignored: ignoredParts(resume, location.used, skills[toolsIndex]),
  };
}

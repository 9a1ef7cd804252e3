/**
 * The résumé as a JSON Resume document (https://jsonresume.org), owned here: written for
 * /resume.json, checked and read back by the owner's import at /admin/profile. Pure functions.
 *
 * The check is the standard's own: its package's schema.json, with the validator the package
 * validates with (jsonschema). What the site keeps then passes the zod schemas of ./profile, so
 * an import obeys exactly what the forms obey; anything else in the file is named, not kept.
 *
 * The export is stable (no lastModified, no order or spelling that depends on when it ran):
 * export → import → export gives the same document, byte for byte.
 */

// A JSON import, not a read at run time: Vite bundles JSON into the server build (it never
// leaves a .json file external), so the schema cannot go missing or change under the build.
import resumeSchemaJson from "@jsonresume/schema/schema.json";
import { Validator, type Schema, type ValidationError } from "jsonschema";
import type { z } from "zod";

import { socialKindFor, toolIconFor, type SkillIcon } from "./icon-set";
import {
  educationSchema,
  experienceSchema,
  PARTIAL_DATE,
  PROFILE_LIMITS,
  PROFILE_TEXT,
  profileSchema,
  splitParagraphs,
  tooManyText,
  type EducationInput,
  type ExperienceInput,
  type ProfileContent,
} from "./profile";

/** The version of the standard written, and the schema it names. */
export const RESUME_VERSION = "v1.0.0";
export const RESUME_SCHEMA_URL = `https://raw.githubusercontent.com/jsonresume/resume-schema/${RESUME_VERSION}/schema.json`;

/** The standard has no place for tools: they travel as one skill of this name, as its keywords. */
export const TOOLS_SKILL = "Tools";
/** "MSc in Data Analytics" is the study type "MSc" in the area "Data Analytics". */
const DEGREE_JOIN = " in ";
/** "Dublin, Ireland" is the city "Dublin" in the region "Ireland". */
const LOCATION_SEPARATOR = ",";
const LOCATION_JOIN = ", ";
/** About's paragraphs are the summary's, separated by a blank line. */
const PARAGRAPH_JOIN = "\n\n";
/** An address's lines join into one location. */
const LINE_BREAK = /\s*\r?\n\s*/g;
/** Where an error about the whole document points. */
export const DOCUMENT_PATH = "(document)";

export const RESUME_ERROR_TEXT = {
  notObject: "The file must hold a JSON object, { … }.",
  invalidUri: "Enter a full address, like https://example.com.",
  /** "must be text." for the standard's type names. */
  wrongType: (types: string) => `must be ${types}.`,
} as const;

/** The standard's type names, as the owner reads them. */
const TYPE_NAMES: Record<string, string> = {
  string: "text",
  array: "a list",
  object: "an object",
  number: "a number",
  boolean: "true or false",
};

/** Members the standard lets any object carry besides its own. */
type Extras = { [extra: string]: unknown };

export type ResumeLocation = {
  address?: string;
  postalCode?: string;
  city?: string;
  countryCode?: string;
  region?: string;
} & Extras;
export type ResumeProfile = { network?: string; username?: string; url?: string } & Extras;
export type ResumeBasics = {
  name?: string;
  label?: string;
  image?: string;
  email?: string;
  url?: string;
  summary?: string;
  location?: ResumeLocation;
  profiles?: ResumeProfile[];
} & Extras;
export type ResumeWork = {
  name?: string;
  position?: string;
  startDate?: string;
  endDate?: string;
} & Extras;
export type ResumeEducation = {
  institution?: string;
  area?: string;
  studyType?: string;
  startDate?: string;
  endDate?: string;
} & Extras;
export type ResumeSkill = { name?: string; keywords?: string[] } & Extras;
export type ResumeMeta = { canonical?: string; version?: string; lastModified?: string } & Extras;

/** A JSON Resume document: what the export writes and the import reads, with any extras. */
export type ResumeDocument = {
  $schema?: string;
  basics?: ResumeBasics;
  work?: ResumeWork[];
  education?: ResumeEducation[];
  skills?: ResumeSkill[];
  meta?: ResumeMeta;
} & Extras;

/** A field that fails: `basics.email`, `work[2].startDate`, or DOCUMENT_PATH. */
export type ResumeError = { path: string; message: string };

/** What the site keeps of a résumé, and what an import replaces. */
export type ResumeContent = {
  profile: ProfileContent;
  experiences: ExperienceInput[];
  education: EducationInput[];
};

export type ResumeCheck =
  { ok: true; resume: ResumeDocument } | { ok: false; errors: ResumeError[] };
/** `ignored`: the parts of the document that are not kept ("basics.phone", "work[].highlights"). */
export type ResumeImport =
  ({ ok: true; ignored: string[] } & ResumeContent) | { ok: false; errors: ResumeError[] };

// ---------------------------------------------------------------------------------------------
// Export

const RESUME_SCHEMA = resumeSchemaJson as Schema;
const validator = new Validator();

/** The standard's format checks, as its validator applies them. */
const hasFormat = (value: string, format: "email" | "uri") =>
  validator.validate(value, { type: "string", format }).valid;

function hrefOf(value: string): string | undefined {
  try {
    return new URL(value).href;
  } catch {
    return undefined;
  }
}

/**
 * An address the standard accepts: as written when it passes, else as a browser writes it
 * (spaces and the like percent-encoded), else none, rather than an invalid document.
 */
const uri = (value: string) => [value, hrefOf(value)].find((v) => v && hasFormat(v, "uri"));

/** A date the standard and the forms both accept, or none. */
const partialDate = (value: string | null) =>
  value !== null && PARTIAL_DATE.test(value) ? value : undefined;

/** Drops members that are undefined, so a document is the same however it was built. */
const compact = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * Split at the first comma, when there is text on both sides: ", Ireland" stays whole as the
 * city, so the import gives back exactly the location that was exported.
 */
function splitLocation(location: string): ResumeLocation {
  const at = location.indexOf(LOCATION_SEPARATOR);
  const city = location.slice(0, at).trim();
  const region = location.slice(at + LOCATION_SEPARATOR.length).trim();
  return at >= 0 && city && region ? { city, region } : { city: location.trim() };
}

/** The last non-empty segment of an address's path ("…/in/example" → "example"). */
function usernameOf(url: string): string | undefined {
  let segment: string | undefined;
  try {
    segment = new URL(url).pathname.split("/").filter(Boolean).at(-1);
  } catch {
    return undefined;
  }
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // A stray "%" is part of the name.
  }
}

function splitDegree(degree: string): { studyType: string; area?: string } {
  const at = degree.indexOf(DEGREE_JOIN);
  return at < 0
    ? { studyType: degree }
    : { studyType: degree.slice(0, at), area: degree.slice(at + DEGREE_JOIN.length) };
}

/** The résumé as a JSON Resume document that the standard's schema accepts, whatever the input. */
export function toResume(
  input: ResumeContent & { siteUrl: string; photoUrl: string | null },
): ResumeDocument {
  const { profile } = input;
  const siteUrl = input.siteUrl.replace(/\/+$/, "");
  const skills: ResumeSkill[] = profile.skills.map((skill) => ({ name: skill.name }));
  if (profile.tools.length > 0) {
    skills.push({ name: TOOLS_SKILL, keywords: profile.tools.map((tool) => tool.name) });
  }
  return {
    $schema: RESUME_SCHEMA_URL,
    basics: compact({
      name: profile.name,
      label: profile.title,
      image: input.photoUrl ?? undefined,
      email: hasFormat(profile.email, "email") ? profile.email : undefined,
      url: uri(`${siteUrl}/`),
      summary: profile.about.join(PARAGRAPH_JOIN),
      location: splitLocation(profile.location),
      profiles: profile.socials.map((social) => {
        const url = uri(social.url);
        return compact({
          network: social.label,
          username: url === undefined ? undefined : usernameOf(url),
          url,
        });
      }),
    }),
    work: input.experiences.map((job) =>
      compact({
        name: job.company,
        position: job.title,
        startDate: partialDate(job.from),
        endDate: job.currentJob ? undefined : partialDate(job.to),
      }),
    ),
    education: input.education.map((study) =>
      compact({
        institution: study.institution,
        ...splitDegree(study.degree),
        startDate: partialDate(study.from),
        endDate: study.currentlyStudying ? undefined : partialDate(study.to),
      }),
    ),
    skills,
    meta: compact({ canonical: uri(`${siteUrl}/resume.json`), version: RESUME_VERSION }),
  };
}

// ---------------------------------------------------------------------------------------------
// Check

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** ["work", 2, "startDate"] → "work[2].startDate"; [] → DOCUMENT_PATH. */
const pathText = (path: readonly (string | number)[]) =>
  path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join("") || DOCUMENT_PATH;

/** The validator's message, in the forms' words where the forms have some. */
function messageOf(error: ValidationError): string {
  // The only pattern in the standard is its date's.
  if (error.name === "pattern") return PROFILE_TEXT.invalidDate;
  if (error.name === "format" && error.argument === "email") return PROFILE_TEXT.invalidEmail;
  if (error.name === "format" && error.argument === "uri") return RESUME_ERROR_TEXT.invalidUri;
  if (error.name === "type") {
    const types = ([] as unknown[]).concat(error.argument).map(String);
    return RESUME_ERROR_TEXT.wrongType(types.map((t) => TYPE_NAMES[t] ?? t).join(" or "));
  }
  return error.message;
}

/** The document against the standard's schema, every failing field named. */
export function validateResume(doc: unknown): ResumeCheck {
  if (!isRecord(doc)) {
    return { ok: false, errors: [{ path: DOCUMENT_PATH, message: RESUME_ERROR_TEXT.notObject }] };
  }
  const result = validator.validate(doc, RESUME_SCHEMA);
  if (result.valid) return { ok: true, resume: doc as ResumeDocument };
  return {
    ok: false,
    errors: result.errors.map((error) => ({
      path: pathText(error.path),
      message: messageOf(error),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Import

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
const STUDY_FIELDS: Record<string, string> = {
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
    const parsed = experienceSchema.safeParse({
      title: job.position ?? "",
      company: job.name ?? "",
      from: job.startDate ?? "",
      to: job.endDate ?? "",
      currentJob: !hasText(job.endDate),
    });
    if (parsed.success) experiences.push(parsed.data);
    else errors.push(...errorsOf(parsed.error, (path) => entryPath("work", i, path, WORK_FIELDS)));
  }

  const studies = resume.education ?? [];
  errors.push(...tooMany("education", studies.length, "education entries"));
  const education: EducationInput[] = [];
  for (const [i, study] of studies.entries()) {
    const parts = [study.studyType, study.area].filter(hasText);
    const parsed = educationSchema.safeParse({
      degree: parts.join(DEGREE_JOIN),
      institution: study.institution ?? "",
      from: study.startDate ?? "",
      to: study.endDate ?? "",
      currentlyStudying: !hasText(study.endDate),
    });
    // The degree is made of two fields: point at the one that is there.
    const degreeField = hasText(study.studyType) || !hasText(study.area) ? "studyType" : "area";
    const fields = { ...STUDY_FIELDS, degree: degreeField };
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

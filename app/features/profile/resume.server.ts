/**
 * The résumé as a JSON Resume document (https://jsonresume.org), owned here: written for
 * /resume.json, checked and read back by the owner's import at /admin/profile (the reading is
 * ./resume-import.server). Pure functions.
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

import { PARTIAL_DATE, PROFILE_TEXT, type ProfileContent } from "./profile";
import type { EducationInput, ExperienceInput } from "./timeline/timeline";

/** The version of the standard written, and the schema it names. */
export const RESUME_VERSION = "v1.0.0";
export const RESUME_SCHEMA_URL = `https://raw.githubusercontent.com/jsonresume/resume-schema/${RESUME_VERSION}/schema.json`;

/** The standard has no place for tools: they travel as one skill of this name, as its keywords. */
export const TOOLS_SKILL = "Tools";
/** "MSc in Data Analytics" is the study type "MSc" in the area "Data Analytics". */
export const DEGREE_JOIN = " in ";
/** "Dublin, Ireland" is the city "Dublin" in the region "Ireland". */
const LOCATION_SEPARATOR = ",";
export const LOCATION_JOIN = ", ";
/** About's paragraphs are the summary's, separated by a blank line. */
const PARAGRAPH_JOIN = "\n\n";
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

/** The standard's schema (the import's worker thread is given a copy). */
export const RESUME_SCHEMA = resumeSchemaJson as Schema;
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
export function usernameOf(url: string): string | undefined {
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
        endDate: job.current ? undefined : partialDate(job.to),
      }),
    ),
    education: input.education.map((entry) =>
      compact({
        institution: entry.institution,
        ...splitDegree(entry.degree),
        startDate: partialDate(entry.from),
        endDate: entry.current ? undefined : partialDate(entry.to),
      }),
    ),
    skills,
    meta: compact({ canonical: uri(`${siteUrl}/resume.json`), version: RESUME_VERSION }),
  };
}

// ---------------------------------------------------------------------------------------------
// Check

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** ["work", 2, "startDate"] → "work[2].startDate"; [] → DOCUMENT_PATH. */
const pathText = (path: readonly (string | number)[]) =>
  path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join("") || DOCUMENT_PATH;

/** What the owner is told of a validator's error (all a worker thread sends back of one). */
export type SchemaProblem = Pick<ValidationError, "name" | "argument" | "message"> & {
  path: (string | number)[];
};

/** The validator's message, in the forms' words where the forms have some. */
function messageOf(error: SchemaProblem): string {
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
  return { ok: false, errors: result.errors.map(resumeErrorOf) };
}

/** A validator's error at its path in the document, as the owner reads it. */
export const resumeErrorOf = (error: SchemaProblem): ResumeError => ({
  path: pathText(error.path),
  message: messageOf(error),
});

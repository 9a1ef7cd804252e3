/**
 * The owner's résumé, owned here: the profile (name, title, About, links, skills, tools), the
 * limits of it and of the timelines' entries (./timeline/timeline.ts), the checks every write
 * passes (the /admin/profile forms and a JSON Resume import alike), and the texts the owner
 * sees.
 *
 * zod is fine here: only the admin page and the server load this module; the home page
 * imports its types alone.
 */

import { z } from "zod";

import { formatBytes, formatCount } from "~/lib/format";
import type { ProfileContent } from "../../../database/profile-content";
import { isSkillIcon, isSocialKind, isToolIcon } from "./icon-set";

export type {
  ProfileContent,
  Skill,
  SocialLink,
  StoredCv,
  StoredPhoto,
  Tool,
} from "../../../database/profile-content";

export const PROFILE_LIMITS = {
  /** Name, title, location, a link's label, a skill's or tool's name, an entry's text. */
  shortText: 120,
  email: 320,
  url: 2000,
  aboutParagraph: 2000,
  aboutParagraphs: 10,
  socials: 10,
  skills: 24,
  tools: 40,
  /** Experience and education entries, each. */
  entries: 100,
} as const;

export const PROFILE_TEXT = {
  required: "is required.",
  saved: "Saved.",
  invalidEmail: "Enter an e-mail address like name@example.com.",
  invalidUrl: "Enter an address starting with https:// or http://.",
  invalidDate: "Enter a date as YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2023-03).",
  toBeforeFrom: "must not be before From.",
  toOrCurrent: "Enter when it ended, or tick the box if it has not.",
  nullCharacter: "contains a null character.",
  invalidIcon: "Pick an icon from the list.",
} as const;

/** "must be at most 120 characters." for a limit. */
export const tooLongText = (max: number) => `must be at most ${formatCount(max)} characters.`;
export const tooManyText = (max: number, noun: string) => `At most ${formatCount(max)} ${noun}.`;

/**
 * A date as JSON Resume writes one (ISO 8601 with the month and day optional), which the home
 * page shows as "Mar 2023". Stricter than the standard's own pattern, never looser.
 */
export const PARTIAL_DATE = /^[12]\d{3}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/;

/** The About text's rule: blank lines part paragraphs, a lone line break is a space. */
export const splitParagraphs = (about: string) =>
  about
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.replace(/\s*\r?\n\s*/g, " ").trim())
    .filter(Boolean);

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2023-03" or "2023-03-14" → "Mar 2023"; "2023" stays; anything else is shown as it is. */
export function formatPartialDate(value: string): string {
  if (!PARTIAL_DATE.test(value)) return value;
  const [year, month] = value.split("-");
  return month ? `${MONTHS[Number(month) - 1]} ${year}` : (year ?? value);
}

/** A text the owner must fill in: trimmed, at most `max` characters, no null character. */
export const requiredText = (label: string, max: number = PROFILE_LIMITS.shortText) =>
  z
    .string()
    .trim()
    .min(1, `${label} ${PROFILE_TEXT.required}`)
    .max(max, `${label} ${tooLongText(max)}`)
    .refine((s) => !s.includes("\0"), `${label} ${PROFILE_TEXT.nullCharacter}`);

const httpUrl = z
  .string()
  .trim()
  .max(PROFILE_LIMITS.url, `URL ${tooLongText(PROFILE_LIMITS.url)}`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, PROFILE_TEXT.invalidUrl);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A list of named icons (skills, tools): each a name and one of the site's icons, at most `max`. */
function namedIcons<Icon extends string>(
  label: string,
  isIcon: (id: string) => id is Icon,
  max: number,
  noun: string,
) {
  return z
    .array(
      z.object({
        name: requiredText(label),
        icon: z.string().refine(isIcon, PROFILE_TEXT.invalidIcon),
      }),
    )
    .max(max, tooManyText(max, noun));
}

export const profileSchema = z.object({
  name: requiredText("Name"),
  title: requiredText("Title"),
  location: requiredText("Location"),
  email: z
    .string()
    .trim()
    .max(PROFILE_LIMITS.email, `E-mail ${tooLongText(PROFILE_LIMITS.email)}`)
    .regex(EMAIL, PROFILE_TEXT.invalidEmail),
  about: z
    .array(requiredText("Each paragraph", PROFILE_LIMITS.aboutParagraph))
    .min(1, `About ${PROFILE_TEXT.required}`)
    .max(PROFILE_LIMITS.aboutParagraphs, tooManyText(PROFILE_LIMITS.aboutParagraphs, "paragraphs")),
  socials: z
    .array(
      z.object({
        kind: z.string().refine(isSocialKind, PROFILE_TEXT.invalidIcon),
        label: requiredText("Label"),
        url: httpUrl,
      }),
    )
    .max(PROFILE_LIMITS.socials, tooManyText(PROFILE_LIMITS.socials, "links")),
  skills: namedIcons("Skill", isSkillIcon, PROFILE_LIMITS.skills, "skills"),
  tools: namedIcons("Tool", isToolIcon, PROFILE_LIMITS.tools, "tools"),
}) satisfies z.ZodType<ProfileContent>;

/** Field errors keyed by the form field's name ("socials.1.url"), first message each. */
export type FieldErrors = Record<string, string>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    errors[key] ??= issue.message;
  }
  return errors;
}

/** A JSON Resume file is text: a 50-entry résumé is about 30 KB. */
export const RESUME_IMPORT_MAX_BYTES = 1000 ** 2;

export const RESUME_TEXT = {
  tooLarge: `The JSON Resume file is larger than ${formatBytes(RESUME_IMPORT_MAX_BYTES)}.`,
  notJson: "The file is not JSON: export it again from your résumé tool.",
  invalid: "The file is not a valid JSON Resume; nothing was changed. Fix these fields:",
  imported: "Imported: the profile, experience and education now match the file.",
} as const;

/**
 * What a JSON Resume import may hold, checked before any of it is parsed (./resume-scan.server),
 * and the texts the owner reads when a file holds more. Shared: the route's body limit
 * (app/route-policy.ts) is built from these too.
 */

import { formatBytes, formatCount, SECOND_MS } from "~/lib/format";
import { BODY_LIMITS } from "~/lib/limits";

import { PROFILE_LIMITS, RESUME_IMPORT_MAX_BYTES } from "./profile";

export const RESUME_IMPORT_LIMITS = {
  /** The file's text, and the checked document the confirmation sends back. */
  bytes: RESUME_IMPORT_MAX_BYTES,
  /**
   * Items in any list and members in any object: the most the site keeps of anything (its
   * experience and education entries), so no list the import reads is ever cut short.
   */
  entries: PROFILE_LIMITS.entries,
  /** Lists and objects inside each other: the standard's deepest is 4 (basics.location.city). */
  depth: 32,
  /** Problems named in a refusal; the rest are counted. */
  problems: 20,
  /** The check (parse and schema) in its worker thread is stopped after this. */
  checkMs: 10 * SECOND_MS,
} as const;

/**
 * The import's route reads a file (the preview) or the checked document (the confirmation),
 * both sent as multipart, never larger than `bytes`, with room for the form's other fields and
 * multipart's boundaries.
 */
export const RESUME_IMPORT_BODY_LIMIT = RESUME_IMPORT_LIMITS.bytes + BODY_LIMITS.form;

const { bytes, entries, depth, problems } = RESUME_IMPORT_LIMITS;

export const RESUME_LIMIT_TEXT = {
  confirmTooLarge: `The checked document is larger than ${formatBytes(bytes)}: import the file again.`,
  /** `at`: where, as "work" or "basics.profiles" (DOCUMENT_PATH for the document itself). */
  tooManyEntries: (at: string) =>
    `${at} holds more than ${formatCount(entries)} entries; a JSON Resume may hold at most ${formatCount(entries)} in any list or object. Nothing was read further.`,
  tooDeep: `The file nests lists and objects more than ${formatCount(depth)} levels deep; a JSON Resume needs far fewer. Nothing was read further.`,
  /** Said of a file with more than `problems` problems. */
  moreProblems: (total: number) =>
    `${formatCount(total)} problems; the first ${formatCount(problems)} are listed.`,
  tooSlow: "Checking the file took too long; nothing was changed. Try again, or a smaller file.",
} as const;

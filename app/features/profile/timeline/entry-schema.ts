import { z } from "zod";

import { PARTIAL_DATE, PROFILE_TEXT, requiredText } from "../profile";
import { TIMELINES, type EntryInput, type TimelineKind } from "./timeline";

const date = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} ${PROFILE_TEXT.required}`)
    .regex(PARTIAL_DATE, PROFILE_TEXT.invalidDate);

const optionalDate = z
  .string()
  .trim()
  .refine((s) => s === "" || PARTIAL_DATE.test(s), PROFILE_TEXT.invalidDate)
  .transform((s) => (s === "" ? null : s));

/**
 * To is required unless the entry is still going, and not before From (compared at the
 * precision both have: "2023" is not before "2023-05").
 */
function checkPeriod(
  v: { from: string; to: string | null; current: boolean },
  ctx: z.RefinementCtx,
) {
  if (v.current) return;
  if (v.to === null) {
    ctx.addIssue({ code: "custom", path: ["to"], message: PROFILE_TEXT.toOrCurrent });
    return;
  }
  const n = Math.min(v.to.length, v.from.length);
  if (v.to.slice(0, n) < v.from.slice(0, n)) {
    ctx.addIssue({ code: "custom", path: ["to"], message: `To ${PROFILE_TEXT.toBeforeFrom}` });
  }
}

/**
 * The check every entry of `kind` passes (its form and a JSON Resume import alike): its two
 * texts by their labels, in the form's order, then the period; a current entry has no To.
 */
function entrySchema<K extends TimelineKind>(kind: K) {
  const [first, second] = TIMELINES[kind].fields;
  const texts = {
    [first.name]: requiredText(first.label),
    [second.name]: requiredText(second.label),
  };
  const schema = z
    .object({
      ...texts,
      from: date("From"),
      to: optionalDate,
      current: z.boolean(),
    })
    .superRefine((v, ctx) => checkPeriod(v, ctx))
    .transform((v) => ({ ...v, to: v.current ? null : v.to }));
  // zod types the two texts by the descriptor's names only as `string` keys.
  return schema as unknown as z.ZodType<EntryInput<K>, unknown>;
}

export const ENTRY_SCHEMAS = {
  experience: entrySchema("experience"),
  education: entrySchema("education"),
} as const;

/**
 * The résumé's two timelines, experience and education, as one thing: an entry is two named
 * texts, a period, and whether it is still going. What tells the kinds apart is a descriptor
 * each (TIMELINES): the names of its two fields (as stored, posted and validated), their
 * labels, and the texts the owner and visitors read. Storage, forms, checks and pages read the
 * descriptor; none of them names a kind's fields. The home page's browser code does not load
 * it (its sections carry their own titles, app/routes/home.tsx), nor zod: the checks are in
 * ./entry-schema.ts.
 */

export type TimelineKind = "experience" | "education";

type TimelineDescriptor = {
  /** An entry's two texts, in the order its heading names them ("Title at Company"). */
  fields: readonly [{ name: string; label: string }, { name: string; label: string }];
  /** The editor's section heading. */
  heading: string;
  add: string;
  /** The label of the box ticked while the entry is still going. */
  current: string;
  empty: string;
  /** Logged when the home page cannot read them (and shows none). */
  readError: string;
};

export const TIMELINES = {
  experience: {
    fields: [
      { name: "title", label: "Title" },
      { name: "company", label: "Company" },
    ],
    heading: "Experience",
    add: "Add experience",
    current: "Current job",
    empty: "No experience yet: add the first below.",
    readError: "Error fetching experiences:",
  },
  education: {
    fields: [
      { name: "degree", label: "Degree" },
      { name: "institution", label: "Institution" },
    ],
    heading: "Education",
    add: "Add education",
    current: "Currently studying",
    empty: "No education yet: add the first below.",
    readError: "Error fetching education:",
  },
} as const satisfies Record<TimelineKind, TimelineDescriptor>;

type FieldName<K extends TimelineKind> = (typeof TIMELINES)[K]["fields"][number]["name"];

/** When an entry ran, or that it still does (then `to` is null). */
export type Period = { from: string; to: string | null; current: boolean };

/** An entry as the forms and an import write it. */
export type EntryInput<K extends TimelineKind = TimelineKind> = K extends TimelineKind
  ? { [F in FieldName<K>]: string } & Period
  : never;
/** A stored entry, with the id its form posts back. */
export type Entry<K extends TimelineKind = TimelineKind> = K extends TimelineKind
  ? EntryInput<K> & { id: number }
  : never;

export type ExperienceInput = EntryInput<"experience">;
export type EducationInput = EntryInput<"education">;
export type Experience = Entry<"experience">;
export type Education = Entry<"education">;

/** An entry's two texts, in its descriptor's order. */
export function entryTexts(kind: TimelineKind, entry: EntryInput): [string, string] {
  const texts: Partial<Record<string, unknown>> = entry;
  const [first, second] = TIMELINES[kind].fields;
  return [String(texts[first.name] ?? ""), String(texts[second.name] ?? "")];
}

/** "Senior Developer at Acme", "BSc at TU Dublin": how an entry is named everywhere. */
export function entryHeading(kind: TimelineKind, entry: EntryInput): string {
  const [first, second] = entryTexts(kind, entry);
  return `${first} at ${second}`;
}

/** An entry as the home page's timeline shows it. */
export type TimelineItem = {
  id: number;
  heading: string;
  from: string;
  to: string | null;
  current: boolean;
};

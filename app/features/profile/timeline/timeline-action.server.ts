import type { Database } from "../../../../database/db.server";
import { parseSerialId } from "~/lib/ids";

import {
  done,
  failed,
  intentOf,
  invalid,
  unknownIntent,
  valuesOf,
  type Answer,
} from "../editor/form.server";
import { fieldErrors } from "../profile";
import { ENTRY_SCHEMAS } from "./entry-schema";
import { TIMELINES, type TimelineKind } from "./timeline";
import { addEntry, deleteEntry, moveEntry, updateEntry } from "./timeline.server";

/** The buttons of a timeline's forms: add one, and save, delete (asked first), move a stored one. */
const INTENTS = ["add", "save", "ask", "delete", "up", "down"] as const;

const NOT_FOUND = "This entry no longer exists: reload the page.";

/** An entry's form, checked: its two texts by the descriptor's names, the period, the box. */
function readEntryForm(kind: TimelineKind, values: Record<string, string>) {
  const [first, second] = TIMELINES[kind].fields;
  return ENTRY_SCHEMAS[kind].safeParse({
    [first.name]: values[first.name] ?? "",
    [second.name]: values[second.name] ?? "",
    from: values.from ?? "",
    to: values.to ?? "",
    current: values.current === "on",
  });
}

/** A timeline's forms: each answers the form it came from (`experience-3`, `education-new`). */
export async function editTimeline(
  db: Database,
  kind: TimelineKind,
  form: FormData,
): Promise<Answer> {
  const intent = intentOf(form, INTENTS);
  if (intent === null) return unknownIntent();
  const values = valuesOf(form);
  if (intent === "add") {
    const parsed = readEntryForm(kind, values);
    const key = `${kind}-new`;
    if (!parsed.success) return invalid(key, values, fieldErrors(parsed.error));
    await addEntry(db, kind, parsed.data);
    return done(key, "Added.");
  }
  const id = parseSerialId(values.id);
  const key = `${kind}-${id ?? "unknown"}`;
  if (id === null) return failed(key, 404, NOT_FOUND);
  switch (intent) {
    case "save": {
      const parsed = readEntryForm(kind, values);
      if (!parsed.success) return invalid(key, values, fieldErrors(parsed.error));
      return (await updateEntry(db, kind, id, parsed.data))
        ? done(key)
        : failed(key, 404, NOT_FOUND);
    }
    case "ask":
      return { status: 200, result: { form: key, ok: true, confirmDelete: true } };
    case "delete":
      return (await deleteEntry(db, kind, id))
        ? done(`${kind}-deleted`, "Deleted.")
        : failed(key, 404, NOT_FOUND);
    case "up":
    case "down":
      await moveEntry(db, kind, id, intent);
      return done(key, intent === "up" ? "Moved up." : "Moved down.");
  }
}

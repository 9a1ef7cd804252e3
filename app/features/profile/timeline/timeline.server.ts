import { asc, eq, getTableColumns, sql } from "drizzle-orm";

import type { Database } from "../../../../database/db.server";
import { education, jobExperiences } from "../../../../database/schema";
import { emptyOnError } from "~/lib/safe";

import { formatPartialDate } from "../profile";
import {
  TIMELINES,
  entryHeading,
  type Entry,
  type EntryInput,
  type TimelineItem,
  type TimelineKind,
} from "./timeline";

/** Where each timeline is stored: the same columns but for the two texts the descriptor names. */
const TABLES = { experience: jobExperiences, education } as const;
type TimelineTable = (typeof TABLES)[TimelineKind];

/** A transaction or the database: what the writes below need. */
type Writer = Pick<Database, "select" | "insert" | "update" | "delete">;

/** The columns an entry is read from: its id, its two texts, its period. */
function entryColumns(kind: TimelineKind) {
  const columns = getTableColumns(TABLES[kind]);
  const [first, second] = TIMELINES[kind].fields;
  const named = columns as unknown as Record<string, (typeof columns)["from"]>;
  return {
    id: columns.id,
    [first.name]: named[first.name]!,
    [second.name]: named[second.name]!,
    from: columns.from,
    to: columns.to,
    current: columns.current,
  };
}

/** A timeline's entries in the owner's order (sort key, then insertion). */
export async function listEntries<K extends TimelineKind>(
  db: Database,
  kind: K,
): Promise<Entry<K>[]> {
  const table: TimelineTable = TABLES[kind];
  const rows = await db
    .select(entryColumns(kind))
    .from(table)
    .orderBy(asc(table.sortKey), asc(table.id));
  // The columns were picked by the descriptor's names, which are Entry<K>'s.
  return rows as Entry<K>[];
}

/**
 * A timeline as the home page shows it. A failed read is logged and shows no entries, so the
 * page still renders; `onError` is told (such a page must not be cached).
 */
export async function readTimeline(
  db: Database,
  kind: TimelineKind,
  onError?: () => void,
): Promise<TimelineItem[]> {
  const entries = await emptyOnError(listEntries(db, kind), TIMELINES[kind].readError, onError);
  return entries.map((entry) => ({
    id: entry.id,
    heading: entryHeading(kind, entry),
    from: formatPartialDate(entry.from),
    to: entry.to === null ? null : formatPartialDate(entry.to),
    current: entry.current,
  }));
}

/** The next sort key: new entries go last. */
async function nextSortKey(db: Writer, table: TimelineTable): Promise<number> {
  const [row] = await db.select({ max: sql<number | null>`max(${table.sortKey})` }).from(table);
  return (row?.max ?? -1) + 1;
}

/** Adds an entry at the end of its timeline; returns its id. */
export async function addEntry<K extends TimelineKind>(
  db: Database,
  kind: K,
  input: EntryInput<K>,
): Promise<number> {
  const table: TimelineTable = TABLES[kind];
  const sortKey = await nextSortKey(db, table);
  const [row] = await db
    .insert(table)
    .values({ ...input, sortKey })
    .returning({ id: table.id });
  return row!.id;
}

/** False when the entry is gone (deleted in another tab, say). */
export async function updateEntry<K extends TimelineKind>(
  db: Database,
  kind: K,
  id: number,
  input: EntryInput<K>,
): Promise<boolean> {
  const table: TimelineTable = TABLES[kind];
  const rows = await db
    .update(table)
    .set(input)
    .where(eq(table.id, id))
    .returning({ id: table.id });
  return rows.length > 0;
}

export async function deleteEntry(db: Database, kind: TimelineKind, id: number): Promise<boolean> {
  const table: TimelineTable = TABLES[kind];
  const rows = await db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
  return rows.length > 0;
}

/**
 * Moves an entry one place up or down the owner's order. The whole list is renumbered in one
 * transaction, so entries with equal keys (from SQL, or an old database) move predictably.
 * False when the entry is gone or already at that end.
 */
export async function moveEntry(
  db: Database,
  kind: TimelineKind,
  id: number,
  direction: "up" | "down",
): Promise<boolean> {
  const table: TimelineTable = TABLES[kind];
  return db.transaction(async (tx) => {
    // Two moves at once must not interleave their renumbering.
    await tx.execute(sql`lock table ${table} in share row exclusive mode`);
    const ids = (
      await tx.select({ id: table.id }).from(table).orderBy(asc(table.sortKey), asc(table.id))
    ).map((row) => row.id);
    const at = ids.indexOf(id);
    const to = direction === "up" ? at - 1 : at + 1;
    if (at < 0 || to < 0 || to >= ids.length) return false;
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    for (const [sortKey, rowId] of ids.entries()) {
      await tx.update(table).set({ sortKey }).where(eq(table.id, rowId));
    }
    return true;
  });
}

/** Replaces a whole timeline with `inputs`, in their order (inside the caller's transaction). */
export async function replaceEntries<K extends TimelineKind>(
  tx: Writer,
  kind: K,
  inputs: EntryInput<K>[],
): Promise<void> {
  const table: TimelineTable = TABLES[kind];
  await tx.delete(table);
  if (inputs.length > 0) {
    await tx.insert(table).values(inputs.map((input, sortKey) => ({ ...input, sortKey })));
  }
}

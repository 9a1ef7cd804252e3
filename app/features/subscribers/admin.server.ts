/** The owner's side: the list with its counts, search and paging, removal, export and import. */
import { count, desc, eq, ilike, inArray, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { subscribers, SUBSCRIBER_STATUSES } from "../../../database/schema";
import { IMPORT_LIMITS, SUBSCRIBERS_PAGE_SIZE, type ImportPreview } from "./admin";
import { parseCsv, toCsv } from "./csv";
import { queueConfirmation } from "./store.server";
import { normalizeEmail } from "./subscribe";

/** How many addresses there are in each state. */
export async function subscriberCounts(db: Database) {
  const rows = await db
    .select({ status: subscribers.status, n: count() })
    .from(subscribers)
    .groupBy(subscribers.status);
  const counts = Object.fromEntries(SUBSCRIBER_STATUSES.map((s) => [s, 0])) as Record<
    (typeof SUBSCRIBER_STATUSES)[number],
    number
  >;
  for (const row of rows) counts[row.status] = row.n;
  return { ...counts, total: rows.reduce((sum, row) => sum + row.n, 0) };
}

/** `%`, `_` and `\` match themselves in a search. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of the list, newest first, of the addresses containing `search`. */
export async function listSubscribers(db: Database, search: string, page: number) {
  const where = search ? ilike(subscribers.email, likePattern(search.toLowerCase())) : undefined;
  const [total] = await db.select({ n: count() }).from(subscribers).where(where);
  const pageCount = Math.max(1, Math.ceil((total?.n ?? 0) / SUBSCRIBERS_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pageCount);
  const rows = await db
    .select()
    .from(subscribers)
    .where(where)
    .orderBy(desc(subscribers.createdAt), desc(subscribers.id))
    .limit(SUBSCRIBERS_PAGE_SIZE)
    .offset((current - 1) * SUBSCRIBERS_PAGE_SIZE);
  return { rows, total: total?.n ?? 0, page: current, pageCount };
}

/** Removes an address for good (it may subscribe again later, from the start). */
export async function removeSubscriber(db: Database, id: number): Promise<boolean> {
  const rows = await db
    .delete(subscribers)
    .where(eq(subscribers.id, id))
    .returning({ id: subscribers.id });
  return rows.length > 0;
}

const iso = (date: Date | null) => date?.toISOString() ?? "";

/** Every address as CSV, oldest first, with a header row. */
export async function exportSubscribers(db: Database): Promise<string> {
  const rows = await db.select().from(subscribers).orderBy(subscribers.id);
  return toCsv([
    ["email", "status", "source", "created_at", "confirmed_at", "unsubscribed_at"],
    ...rows.map((s) => [
      s.email,
      s.status,
      s.source,
      iso(s.createdAt),
      iso(s.confirmedAt),
      iso(s.unsubscribedAt),
    ]),
  ]);
}

/**
 * Reads a CSV file's addresses, from a column named `email` (the header row) or else the
 * first column, and sorts them for the preview: new, already there, or not an address (with
 * the file's row number). Nothing is stored. Null when the file has too many rows.
 */
export async function previewImport(db: Database, text: string): Promise<ImportPreview | null> {
  const rows = parseCsv(text);
  const header = rows[0]?.findIndex((field) => field.trim().toLowerCase() === "email") ?? -1;
  const column = Math.max(header, 0);
  const body = rows
    .map((fields, index) => ({ fields, line: index + 1 }))
    .slice(header >= 0 ? 1 : 0);
  if (body.length > IMPORT_LIMITS.rows) return null;
  const preview: ImportPreview = { fresh: [], existing: [], invalid: [] };
  const seen = new Set<string>();
  for (const { fields, line } of body) {
    if (fields.every((field) => field.trim() === "")) continue;
    const email = normalizeEmail(fields[column] ?? "");
    if (!email) preview.invalid.push({ line, text: (fields[column] ?? "").slice(0, 100) });
    else if (!seen.has(email)) seen.add(email);
  }
  const known = new Set<string>();
  const all = [...seen];
  for (let i = 0; i < all.length; i += 1000) {
    const found = await db
      .select({ email: subscribers.email })
      .from(subscribers)
      .where(inArray(subscribers.email, all.slice(i, i + 1000)));
    for (const row of found) known.add(row.email);
  }
  for (const email of all) (known.has(email) ? preview.existing : preview.fresh).push(email);
  return preview;
}

/**
 * Stores the previewed addresses (checked again; those added meanwhile are skipped) as
 * imported. Consented: confirmed at once, with no mail. Otherwise pending, each with its
 * confirmation mail queued, in one transaction with the rows.
 */
export async function importSubscribers(
  db: Database,
  emails: readonly string[],
  consented: boolean,
): Promise<number> {
  const valid = [...new Set(emails.map(normalizeEmail).filter((e): e is string => e !== null))];
  if (valid.length === 0 || valid.length > IMPORT_LIMITS.rows) return 0;
  return db.transaction(async (tx) => {
    let added = 0;
    for (let i = 0; i < valid.length; i += 1000) {
      const rows = await tx
        .insert(subscribers)
        .values(
          valid.slice(i, i + 1000).map((email) => ({
            email,
            source: "import" as const,
            ...(consented
              ? { status: "confirmed" as const, consentedAt: sql`now()`, confirmedAt: sql`now()` }
              : { status: "pending" as const, confirmationSentAt: sql`now()` }),
          })),
        )
        .onConflictDoNothing({ target: subscribers.email })
        .returning({ id: subscribers.id });
      if (!consented) for (const row of rows) await queueConfirmation(tx, row.id);
      added += rows.length;
    }
    return added;
  });
}

/**
 * The orphan purge: uploaded files nothing uses are deleted ORPHAN_GRACE_HOURS after nothing
 * was known to use them, by a recurring job of the queue (app/lib/jobs.server.ts), so once across
 * instances. Mark, then sweep:
 *
 * - A file is used while its hash (64 hex characters) appears anywhere in a post (any state,
 *   the trash included: title, description, content, English content, share card), a revision
 *   (its title, description and content delta), a revision base or the profile row (photo, CV,
 *   text, the home page's share card). Every
 *   width of a post image is named in the image's `srcset`, so each width is found on its own.
 * - `media.unreferenced_since` says since when a file is unused. An upload is marked at once
 *   (the column defaults to its created_at), each run clears the mark of files in use and marks
 *   the others, then deletes those marked longer than the grace, checking their hashes again in
 *   the delete statement itself: a file saved into a post a moment before is kept.
 *
 * - Parts of a file's bytes (`media_parts`) that no row owns, written longer than
 *   STAGED_PARTS_GRACE_HOURS ago, are what an upload that failed midway left: they go too.
 *
 * The look is in slices of SCAN_BATCH_ROWS rows, one statement each, so on PGlite (one query at
 * a time) requests wait for a slice, never for the whole look. Deleting a row announces its hash
 * (migration 0010), so every instance drops its copy of the file.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { sql, type SQL } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import { HOUR_MS } from "~/lib/format";
import { JOB_LEASE_MS, type JobHandler } from "~/lib/jobs.server";

/** How long a file nothing uses is kept: a file is deleted once unused this long. */
export const ORPHAN_GRACE_HOURS = 24;
/** How often the purge looks: an unused file goes at most this long after its grace. */
export const ORPHAN_PURGE_EVERY_MS = HOUR_MS;
/**
 * How long the parts of a file's bytes may stay without its row: an upload writes its parts,
 * then its row within moments; parts older than this without one are left by a failed upload.
 */
export const STAGED_PARTS_GRACE_HOURS = 1;
/** Rows of a table read by one statement of the look. */
const SCAN_BATCH_ROWS = 100;
/**
 * Files checked again and deleted by one statement of the sweep: each is searched for in every
 * text, so a statement costs this many passes over them.
 */
const SWEEP_BATCH_FILES = 5;
/** A run stops sweeping after this long, inside its job's lease; the next run goes on. */
const SWEEP_BUDGET_MS = JOB_LEASE_MS / 2;

/**
 * Runs of lowercase hex digits long enough to hold a SHA-256: any hash written in a text lies
 * inside one, so a hash is used exactly when it is a substring of one of the runs.
 */
const HEX_RUN = "[0-9a-f]{64,}";

/** Where a hash in use is written: each table's texts (SQL over the row `t`). */
const SOURCES: { table: SQL; key: SQL | null; texts: string[] }[] = [
  {
    table: sql.raw("blog_posts"),
    key: sql.raw("id"),
    texts: ["t.title", "t.description", "t.content", "t.content_en", "t.share_card::text"],
  },
  {
    table: sql.raw("post_revisions"),
    key: sql.raw("id"),
    texts: ["t.title", "t.description", "t.delta::text"],
  },
  { table: sql.raw("post_revision_bases"), key: sql.raw("id"), texts: ["t.content"] },
  { table: sql.raw("profile"), key: null, texts: ["to_jsonb(t)::text"] },
];

/** A row's texts as one (for the look). */
const bodyOf = (source: (typeof SOURCES)[number]) =>
  sql.raw(`concat_ws(' ', ${source.texts.join(", ")})`);

/** The runs that may hold hashes in one slice of a table; `last` is null past its end. */
async function scanSlice(
  db: Database,
  source: (typeof SOURCES)[number],
  after: number,
): Promise<{ last: number | null; runs: string[] }> {
  const slice = source.key
    ? sql`select ${source.key} as key, ${bodyOf(source)} as body from ${source.table} t
        where ${source.key} > ${after} order by ${source.key} limit ${SCAN_BATCH_ROWS}`
    : sql`select null::int as key, ${bodyOf(source)} as body from ${source.table} t`;
  const [row] = rowsOf<{ last: number | null; runs: string | null }>(
    await db.execute(sql`with slice as (${slice})
      select (select max(key) from slice) as last,
        (select string_agg(distinct m[1], ' ')
          from slice, regexp_matches(slice.body, ${HEX_RUN}, 'g') m) as runs`),
  );
  return { last: row?.last ?? null, runs: row?.runs ? row.runs.split(" ") : [] };
}

/** Every run of hex digits in every text that may name a file: hashes (64) and longer runs. */
async function collectRuns(db: Database): Promise<{ exact: string[]; longer: string[] }> {
  const runs = new Set<string>();
  for (const source of SOURCES) {
    let after = 0;
    for (;;) {
      // A turn of the event loop between slices: on the embedded database a scan of many posts
      // is otherwise one unbroken chain of microtasks (server/jobs.ts says more).
      await nextTurn();
      const slice = await scanSlice(db, source, after);
      for (const run of slice.runs) runs.add(run);
      if (slice.last === null || source.key === null) break;
      after = slice.last;
    }
  }
  const all = [...runs];
  return { exact: all.filter((r) => r.length === 64), longer: all.filter((r) => r.length > 64) };
}

/** The media row is named by one of the runs found (`exact` and `longer`, space-separated). */
const namedByRuns = (exact: string, longer: string) =>
  sql`(exists (select 1 from unnest(string_to_array(${exact}, ' ')) r where r = media.hash)
    or exists (select 1 from unnest(string_to_array(${longer}, ' ')) r where strpos(r, media.hash) > 0))`;

/**
 * The media row's hash appears in one of the sources now (the sweep's own check): each text
 * searched on its own, so no row's texts are copied into one per file checked.
 */
const inUse = sql.join(
  SOURCES.map((source) => {
    const found = source.texts.map((text) => `strpos(${text}, media.hash) > 0`).join(" or ");
    return sql`exists (select 1 from ${source.table} t where ${sql.raw(found)})`;
  }),
  sql` or `,
);

/** `now()` minus the grace, by the database's clock. */
const graceAgo = sql`now() - make_interval(hours => ${ORPHAN_GRACE_HOURS})`;

/** What one run did, and what the next runs will do unless a file is used again. */
export type OrphanSummary = {
  /** Files stored, and how many of them were found in use. */
  files: number;
  used: number;
  /** Marks set (newly unused) and cleared (used again). */
  marked: number;
  cleared: number;
  /** Files deleted, and their bytes. */
  deleted: number;
  freedBytes: number;
  /** Parts of failed uploads' bytes deleted (no row owned them for STAGED_PARTS_GRACE_HOURS). */
  strayParts: number;
  /** Files still marked: deleted once marked ORPHAN_GRACE_HOURS, unless used again. */
  waiting: number;
  waitingBytes: number;
  /** When the first of them goes (at the first run after), or null. */
  nextDeletionAt: string | null;
};

/** Deletes the marked files past their grace that nothing uses now, a slice at a time. */
async function sweep(db: Database): Promise<{ hash: string; size: number }[]> {
  const deleted: { hash: string; size: number }[] = [];
  const until = Date.now() + SWEEP_BUDGET_MS;
  let after = "";
  while (Date.now() < until) {
    const slice = rowsOf<{ hash: string }>(
      await db.execute(sql`select hash from media
        where unreferenced_since < ${graceAgo} and hash > ${after}
        order by hash limit ${SWEEP_BATCH_FILES}`),
    );
    if (slice.length === 0) return deleted;
    after = slice.at(-1)!.hash;
    const hashes = slice.map((r) => r.hash).join(" ");
    deleted.push(
      ...rowsOf<{ hash: string; size: number }>(
        await db.execute(sql`delete from media
          where hash = any(string_to_array(${hashes}, ' '))
            and unreferenced_since < ${graceAgo}
            and not (${inUse})
          returning hash, size`),
      ),
    );
  }
  return deleted;
}

/**
 * One run of the purge: clears the marks of files in use, marks the unused ones, deletes those
 * unused longer than the grace. Safe to repeat, and to run on two instances at once (each file
 * is deleted once; a mark set twice keeps the first time).
 */
export async function purgeOrphanMedia(db: Database): Promise<OrphanSummary> {
  const { exact, longer } = await collectRuns(db);
  const named = namedByRuns(exact.join(" "), longer.join(" "));
  const cleared = rowsOf(
    await db.execute(sql`update media set unreferenced_since = null
      where unreferenced_since is not null and ${named} returning hash`),
  ).length;
  const marked = rowsOf(
    await db.execute(sql`update media set unreferenced_since = now()
      where unreferenced_since is null and not ${named} returning hash`),
  ).length;
  const deleted = await sweep(db);
  const strayParts = rowsOf(
    await db.execute(sql`delete from media_parts p
      where p.created_at < now() - make_interval(hours => ${STAGED_PARTS_GRACE_HOURS})
        and not exists (select 1 from media m where m.hash = p.hash)
      returning p.seq`),
  ).length;
  const [state] = rowsOf<{
    files: number;
    waiting: number;
    waiting_bytes: number;
    next: Date | string | null;
  }>(
    await db.execute(sql`select count(*)::int as files,
      (count(*) filter (where unreferenced_since is not null))::int as waiting,
      coalesce(sum(size) filter (where unreferenced_since is not null), 0)::bigint::float8 as waiting_bytes,
      min(unreferenced_since) + make_interval(hours => ${ORPHAN_GRACE_HOURS}) as next
      from media`),
  );
  const freedBytes = deleted.reduce((sum, file) => sum + Number(file.size), 0);
  return {
    files: state!.files,
    used: state!.files - state!.waiting,
    marked,
    cleared,
    deleted: deleted.length,
    freedBytes,
    strayParts,
    waiting: state!.waiting,
    waitingBytes: Number(state!.waiting_bytes),
    nextDeletionAt: state!.next === null ? null : new Date(state!.next).toISOString(),
  };
}

/** The media feature's recurring jobs (server/jobs.ts runs them). */
export const MEDIA_JOBS: readonly JobHandler[] = [
  {
    kind: "media.purge-orphans",
    everyMs: ORPHAN_PURGE_EVERY_MS,
    run: async (db) => ({ graceHours: ORPHAN_GRACE_HOURS, ...(await purgeOrphanMedia(db)) }),
  },
];

/**
 * Backups: one file holding everything the owner would miss (posts and their images, the
 * profile, experience, education, contact messages with their delivery state, and the demo
 * seed's marker), written from either database and restored into either.
 *
 * The file is gzip'd JSON lines: a header, then every row of every table as PostgreSQL's own
 * `to_jsonb` renders it (times in UTC, bytes as hex), in primary-key order, then a trailer with
 * the rows' count and the SHA-256 of every line before it. PostgreSQL writes and reads the rows
 * (`jsonb_populate_record`), so nothing is converted by hand, and the same database gives the
 * same lines whichever driver reads it. A restore reads and checks the whole file before it
 * changes anything, then writes everything in one transaction.
 *
 * A media row is written with its bytes (`bytes`, hex, as `to_jsonb` rendered the column the
 * table had before migration 0012), read from its parts a part per statement; a restore cuts
 * them into parts again. So backups from before and after the parts read and restore alike.
 *
 * Not kept: the owner's password hash, sessions, known devices and sign-in failures (secrets and
 * throttles; a restored site gets its password from OWNER_PASSWORD or `npm run owner:password`),
 * and blog_stats and tag_stats, which the posts' and tags' triggers rebuild as they arrive.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

import { sql } from "drizzle-orm";

import { rowsOf, type Database } from "./db.server";
import { readMediaParts, writeMediaParts } from "./media-parts.server";

export const BACKUP_FORMAT = "dev-portfolio-backup";
export const BACKUP_VERSION = 1;

/** Every table kept, in restore order, with its primary key's columns (rows are written in its order). */
export const BACKUP_TABLES = [
  { name: "app_meta", key: ["key"], replace: true },
  { name: "profile", key: ["id"], replace: true },
  { name: "job_experiences", key: ["id"], replace: false },
  { name: "education", key: ["id"], replace: false },
  { name: "media", key: ["hash"], replace: false },
  // A post's slugs first: their foreign key waits for the commit (migration 0007), and each post's
  // insert then finds its current slug already there.
  { name: "post_slugs", key: ["slug"], replace: false },
  { name: "blog_posts", key: ["id"], replace: false },
  { name: "post_tags", key: ["post_id", "tag"], replace: false },
  // What was imported from another blog: ids for a second import, old paths for their 301s.
  { name: "imported_posts", key: ["source", "source_id"], replace: false },
  { name: "imported_paths", key: ["path"], replace: false },
  // A post's history, the trashed posts' with it: bases before the revisions that use them.
  { name: "post_revision_bases", key: ["id"], replace: false },
  { name: "post_revisions", key: ["id"], replace: false },
  { name: "contact_messages", key: ["id"], replace: false },
  { name: "subscribers", key: ["id"], replace: false },
  // The social web: who follows, what the owner blocked, what others answered, what was sent.
  { name: "social_followers", key: ["id"], replace: false },
  { name: "social_blocks", key: ["id"], replace: false },
  { name: "social_responses", key: ["id"], replace: false },
  { name: "social_outbox", key: ["id"], replace: false },
] as const;

type TableName = (typeof BACKUP_TABLES)[number]["name"];
type Header = { format: string; version: number; createdAt: string; migrations: number };
type Trailer = { rows: number; sha256: string };

export type BackupSummary = { rows: Record<TableName, number>; sha256: string; bytes: number };

/** A backup's file name for a time: sorts by time, and says when it was taken. */
export const backupFileName = (at: Date) =>
  `backup-${at
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/:/g, "-")}.jsonl.gz`;
export const BACKUP_FILE = /^backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.jsonl\.gz$/;

export class BackupError extends Error {
  override name = "BackupError";
}

/**
 * A table's rows as PostgreSQL renders them (`to_jsonb`: its own types, in its own key order),
 * in primary-key order; media rows with their bytes. The caller's transaction sets the time zone.
 */
async function tableRows(
  tx: Pick<Database, "execute" | "select">,
  name: string,
  key: readonly string[],
): Promise<Record<string, unknown>[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await tx.execute(
      sql.raw(
        `select to_jsonb(t)::text as row from "${name}" t order by ${key.map((column) => `"${column}"`).join(", ")}`,
      ),
    ),
  ) as { row: string }[];
  const parsed = rows.map(({ row }) => JSON.parse(row) as Record<string, unknown>);
  if (name !== "media") return parsed;
  const withBytes = [];
  for (const row of parsed) {
    const bytes = await readMediaParts(tx, String(row.hash), Number(row.size));
    withBytes.push(inJsonbOrder({ ...row, bytes: `\\x${bytes.toString("hex")}` }));
  }
  return withBytes;
}

/** A row's keys in the order `to_jsonb` gives them (shorter first, then by their bytes). */
const inJsonbOrder = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)),
  );

/** The bytes of a media row of a backup (hex after `\\x`), checked against its size. */
function mediaBytesOf(row: Record<string, unknown>): Buffer {
  const hex = typeof row.bytes === "string" ? row.bytes : "";
  const bytes = Buffer.from(hex.slice(2), "hex");
  if (
    !hex.startsWith("\\x") ||
    bytes.byteLength !== row.size ||
    hex.length !== 2 + 2 * bytes.byteLength
  ) {
    throw new BackupError(
      `The backup is damaged: the file ${String(row.hash)} does not have its ${String(row.size)} bytes. Nothing was changed.`,
    );
  }
  return bytes;
}

/** How many migrations the database has had applied (a backup from a newer site is refused). */
async function migrationCount(db: Database): Promise<number> {
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
  ) as { n: number }[];
  return row?.n ?? 0;
}

/** Writes a backup of `db` to `file` (through a temporary file, so a crash leaves no half). */
export async function writeBackup(db: Database, file: string): Promise<BackupSummary> {
  const lines: string[] = [];
  const counts = {} as Record<TableName, number>;
  await db.transaction(async (tx) => {
    // One snapshot for every table, and times written the same from any server.
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    await tx.execute(sql`set local timezone = 'UTC'`);
    const header: Header = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      migrations: await migrationCount(tx as unknown as Database),
    };
    lines.push(JSON.stringify(header));
    for (const { name, key } of BACKUP_TABLES) {
      const rows = await tableRows(tx, name, key);
      counts[name] = rows.length;
      for (const row of rows) lines.push(JSON.stringify({ table: name, row }));
    }
  });
  const body = lines.join("\n") + "\n";
  const sha256 = createHash("sha256").update(body).digest("hex");
  const rowsTotal = Object.values(counts).reduce((a, b) => a + b, 0);
  const trailer: Trailer = { rows: rowsTotal, sha256 };
  const bytes = gzipSync(body + JSON.stringify(trailer) + "\n");
  const temporary = `${file}.partial`;
  // Created anew (one a crash left behind goes first), readable by this user alone: a backup
  // holds the contact messages with their senders' e-mails and addresses.
  rmSync(temporary, { force: true });
  try {
    writeFileSync(temporary, bytes, { flag: "wx", mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    // Nothing half-written stays: the older backups are the ones to trust.
    rmSync(temporary, { force: true });
    throw new BackupError(notWrittenText(file, bytes.length, error), { cause: error });
  }
  return { rows: counts, sha256, bytes: bytes.length };
}

/** Why a backup's file could not be written, in plain words. */
function notWrittenText(file: string, bytes: number, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOSPC" || code === "EDQUOT"
      ? `the disk is full (it needed ${bytes} bytes)`
      : code === "EACCES" || code === "EPERM"
        ? "the directory may not be written to"
        : code === "EEXIST"
          ? "another backup is being written to the same file"
          : `${(error as Error).message ?? String(error)}`;
  return `The backup was not written to ${file}: ${why}. Nothing of it was left behind; older backups are unchanged.`;
}

export type ParsedBackup = {
  header: Header;
  rows: { table: TableName; row: Record<string, unknown> }[];
  counts: Record<TableName, number>;
  sha256: string;
};

/** Reads and checks a backup file whole; throws a BackupError saying what is wrong with it. */
export function readBackup(file: string): ParsedBackup {
  let text: string;
  try {
    text = gunzipSync(readFileSync(file)).toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BackupError(`No backup file at ${file}.`);
    throw new BackupError(
      `${file} is not a complete backup: it does not decompress (${code ?? "damaged"}).`,
    );
  }
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const trailerLine = lines.pop();
  let header: Header;
  let trailer: Trailer;
  try {
    header = JSON.parse(lines[0] ?? "") as Header;
    trailer = JSON.parse(trailerLine ?? "") as Trailer;
  } catch {
    throw new BackupError(
      `${file} is not a backup of this site: its first or last line is not one.`,
    );
  }
  if (header.format !== BACKUP_FORMAT) {
    throw new BackupError(
      `${file} is not a backup of this site (format ${JSON.stringify(header.format)}).`,
    );
  }
  if (header.version !== BACKUP_VERSION) {
    throw new BackupError(
      `${file} is a version ${header.version} backup; this site reads version ${BACKUP_VERSION}.`,
    );
  }
  const body = lines.join("\n") + "\n";
  const sha256 = createHash("sha256").update(body).digest("hex");
  if (sha256 !== trailer.sha256 || lines.length - 1 !== trailer.rows) {
    throw new BackupError(`${file} is damaged: its contents do not match its checksum.`);
  }
  const known = new Set<string>(BACKUP_TABLES.map((t) => t.name));
  const counts = Object.fromEntries(BACKUP_TABLES.map((t) => [t.name, 0])) as Record<
    TableName,
    number
  >;
  const rows = lines.slice(1).map((line, i) => {
    const entry = renamed(JSON.parse(line) as { table: TableName; row: Record<string, unknown> });
    if (!known.has(entry.table) || typeof entry.row !== "object" || entry.row === null) {
      throw new BackupError(`${file} is damaged: line ${i + 2} is not a row of a known table.`);
    }
    counts[entry.table] += 1;
    return entry;
  });
  return { header, rows, counts, sha256 };
}

/**
 * The names a backup written before migration 0008 gives a table or column, and today's. The
 * restore's `jsonb_populate_record` drops a key it does not know without a word, so an old
 * backup's "current" flags would otherwise all come back false.
 */
const OLD_TABLE_NAMES = new Map<string, TableName>([["studies", "education"]]);
const OLD_COLUMN_NAMES = new Map<string, Map<string, string>>([
  ["job_experiences", new Map([["current_job", "current"]])],
  ["education", new Map([["currently_studying", "current"]])],
]);

/**
 * Values for columns a backup written before them lacks and that may not be null
 * (`jsonb_populate_record` would give them null): a post's links elsewhere (migration 0023).
 */
const LATER_COLUMNS = new Map<string, Record<string, unknown>>([
  ["blog_posts", { syndication: [] }],
  ["post_revisions", { canonical_url: "", syndication: [] }],
]);

function renamed(entry: { table: TableName; row: Record<string, unknown> }) {
  const { table, row } = renamedColumns(entry);
  const later = LATER_COLUMNS.get(table);
  if (!later || typeof row !== "object" || row === null) return { table, row };
  return { table, row: { ...later, ...row } };
}

function renamedColumns(entry: { table: TableName; row: Record<string, unknown> }) {
  const table = OLD_TABLE_NAMES.get(entry.table) ?? entry.table;
  const columns = OLD_COLUMN_NAMES.get(table);
  if (!columns || typeof entry.row !== "object" || entry.row === null) return { ...entry, table };
  const row = Object.fromEntries(
    Object.entries(entry.row).map(([column, value]) => [columns.get(column) ?? column, value]),
  );
  return { table, row };
}

/**
 * Restores a checked backup into `db`, whose migrations have been applied: refused (nothing
 * changed) when the database already holds posts, images, experience, education or messages,
 * or is older than the site that wrote the backup. The profile and the seed marker the server
 * makes on its own are replaced. Ids go on from the restored ones.
 */
export async function restoreBackup(db: Database, backup: ParsedBackup): Promise<void> {
  const migrations = await migrationCount(db);
  if (backup.header.migrations > migrations) {
    throw new BackupError(
      `The backup comes from a newer version of the site (${backup.header.migrations} migrations; this database has ${migrations}). Update the site first.`,
    );
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    for (const { name, replace } of BACKUP_TABLES) {
      if (replace) {
        await tx.execute(sql.raw(`delete from "${name}"`));
        continue;
      }
      const [row] = rowsOf<Record<string, unknown>>(
        await tx.execute(sql.raw(`select exists (select 1 from "${name}") as taken`)),
      ) as { taken: boolean }[];
      if (row?.taken) {
        throw new BackupError(
          `The database already holds ${name.replaceAll("_", " ")}: restore into a new or emptied database. Nothing was changed.`,
        );
      }
    }
    for (const { table, row } of backup.rows) {
      // A file's bytes go into its parts (the row's `bytes` key is no column: it is dropped).
      if (table === "media") await writeMediaParts(tx, String(row.hash), mediaBytesOf(row));
      await tx.execute(
        sql`insert into ${sql.identifier(table)} select * from jsonb_populate_record(null::${sql.identifier(table)}, ${JSON.stringify(row)}::jsonb)`,
      );
    }
    // Serial ids go on after the restored ones.
    for (const name of [
      "job_experiences",
      "education",
      "blog_posts",
      "contact_messages",
      "subscribers",
      "social_followers",
      "social_blocks",
      "social_responses",
      "social_outbox",
    ]) {
      await tx.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('"${name}"', 'id'), coalesce(max(id), 1), max(id) is not null) from "${name}"`,
        ),
      );
    }
  });
}

/**
 * A fingerprint of what a backup holds, read from a live database: rows per table and the
 * SHA-256 of their lines, so two databases can be compared (tests, and the restore's report).
 */
export async function contentFingerprint(
  db: Database,
): Promise<BackupSummary["rows"] & { sha256: string }> {
  const hash = createHash("sha256");
  const counts = {} as Record<TableName, number>;
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    for (const { name, key } of BACKUP_TABLES) {
      const rows = await tableRows(tx, name, key);
      counts[name] = rows.length;
      for (const row of rows) hash.update(`${name}\t${JSON.stringify(row)}\n`);
    }
  });
  return { ...counts, sha256: hash.digest("hex") };
}

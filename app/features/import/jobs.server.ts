import { setImmediate as nextTurn } from "node:timers/promises";

import { and, desc, eq, inArray, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { importJobs } from "../../../database/schema";
import { IMPORT_LIMITS } from "./admin";
import { readExport } from "./read-export.server";
import { dryRun, runImport } from "./run.server";
import { enqueue, type JobHandler } from "~/lib/jobs.server";

export const IMPORT_JOB_KIND = "import.run";

/** An upload kept for its import: its dry run is what the owner sees before `Import`. */
export async function planUpload(db: Database, fileName: string, bytes: Uint8Array) {
  const plan = await dryRun(db, await readExport({ name: fileName, bytes }));
  const [row] = await db
    .insert(importJobs)
    .values({ fileName, bytes })
    .returning({ id: importJobs.id });
  return { id: row!.id, plan };
}

/** `Import` confirmed: the planned upload is queued (once) for the job queue. */
export async function confirmImport(db: Database, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(importJobs)
      .set({ status: "queued" })
      .where(and(eq(importJobs.id, id), eq(importJobs.status, "planned")))
      .returning({ id: importJobs.id });
    if (!row) return false;
    await enqueue(tx, { kind: IMPORT_JOB_KIND, payload: { id }, key: `${IMPORT_JOB_KIND}:${id}` });
    return true;
  });
}

/** The newest upload's state, for the page's progress and summary. */
export async function latestImport(db: Database) {
  const [row] = await db
    .select({
      id: importJobs.id,
      fileName: importJobs.fileName,
      status: importJobs.status,
      done: importJobs.done,
      total: importJobs.total,
      result: importJobs.result,
    })
    .from(importJobs)
    .where(inArray(importJobs.status, ["queued", "running", "done", "failed"]))
    .orderBy(desc(importJobs.id))
    .limit(1);
  return row ?? null;
}

/**
 * An upload's bytes, read IMPORT_LIMITS.readPartBytes per statement with a turn of the event
 * loop before each: on the embedded database one statement of the whole file (tens of megabytes)
 * would hold every other query, and the event loop, until it is read.
 */
async function uploadBytes(db: Database, id: number, size: number): Promise<Uint8Array> {
  const whole = new Uint8Array(size);
  const part = IMPORT_LIMITS.readPartBytes;
  for (let at = 0; at < size; at += part) {
    await nextTurn();
    const [row] = await db
      .select({ bytes: sql<Uint8Array>`substring(${importJobs.bytes} from ${at + 1} for ${part})` })
      .from(importJobs)
      .where(eq(importJobs.id, id));
    if (!row) throw new Error(`The upload of import ${id} is gone.`);
    whole.set(row.bytes, at);
  }
  return whole;
}

/**
 * The import itself, off the request: safe to run twice, since a post imported before is
 * skipped. Progress is written as it goes, so the page can show it.
 */
async function runImportJob(db: Database, id: number) {
  const [row] = await db
    .select({
      fileName: importJobs.fileName,
      status: importJobs.status,
      size: sql<number>`octet_length(${importJobs.bytes})`.mapWith(Number),
    })
    .from(importJobs)
    .where(eq(importJobs.id, id));
  if (!row || row.status === "done") return { id, created: 0 };
  await db.update(importJobs).set({ status: "running" }).where(eq(importJobs.id, id));
  const bytes = await uploadBytes(db, id, row.size);
  const parsed = await readExport({ name: row.fileName, bytes });
  const result = await runImport(db, parsed, async (done, total) => {
    await db.update(importJobs).set({ done, total }).where(eq(importJobs.id, id));
  });
  await db
    .update(importJobs)
    .set({
      status: "done",
      result: {
        created: result.created.length,
        failed: result.failed.map(({ title, reason }) => ({ title, reason })),
        skipped: result.skipped.length,
        images: result.images,
      },
    })
    .where(eq(importJobs.id, id));
  return { id, created: result.created.length };
}

export const IMPORT_JOBS: readonly JobHandler[] = [
  {
    kind: IMPORT_JOB_KIND,
    run: async (db, job) => {
      const id = Number(job.payload.id);
      if (!Number.isSafeInteger(id)) return { id: null };
      return runImportJob(db, id);
    },
  },
];

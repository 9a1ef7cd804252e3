/**
 * The costly part of an import, parsing a file of up to a megabyte and checking it against the
 * standard's schema (tens to hundreds of milliseconds, and tens of thousands of errors for a
 * bad file), in a worker thread, so requests keep being answered meanwhile
 * (docs/decisions/029-imports-off-the-event-loop.md). One check at a time per instance, each in
 * a thread of its own that is stopped after RESUME_IMPORT_LIMITS.checkMs.
 *
 * The thread runs `checkInWorker`'s own source: a function that needs nothing but Node and the
 * validator's package, so the same code runs in the built server and in development (neither
 * has a separate file the thread could load).
 */

import { createRequire } from "node:module";
import type { Schema } from "jsonschema";
import type * as JsonSchema from "jsonschema";
import { Worker } from "node:worker_threads";

import { RESUME_IMPORT_LIMITS } from "./resume-limits";
import {
  RESUME_SCHEMA,
  resumeErrorOf,
  type ResumeError,
  type SchemaProblem,
} from "./resume.server";

/** What the thread found: `total` errors, the first `maxErrors` of them sent back. */
type WorkerAnswer =
  | { kind: "valid" | "notJson" | "notObject" }
  | { kind: "invalid"; total: number; errors: SchemaProblem[] };

export type TextCheck =
  | { ok: true }
  | { ok: false; reason: "notJson" | "notObject" | "tooSlow" | "failed" }
  | { ok: false; reason: "invalid"; total: number; errors: ResumeError[] };

type WorkerData = { validatorPath: string; schema: unknown; text: string; maxErrors: number };

/**
 * Runs in the thread, from its source text: everything it uses comes through `load` (the
 * thread's `require`), so that it refers to nothing of this module once bundled.
 */
function checkInWorker(load: (id: string) => unknown) {
  const { parentPort, workerData } = load("node:worker_threads") as {
    parentPort: { postMessage(answer: WorkerAnswer): void };
    workerData: WorkerData;
  };
  const { validatorPath, schema, text, maxErrors } = workerData;
  const { Validator } = load(validatorPath) as typeof JsonSchema;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    parentPort.postMessage({ kind: "notJson" });
    return;
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    parentPort.postMessage({ kind: "notObject" });
    return;
  }
  const result = new Validator().validate(doc, schema as Schema);
  if (result.valid) {
    parentPort.postMessage({ kind: "valid" });
    return;
  }
  // Plain values only: an error's argument can be a part of the schema.
  const argumentOf = (value: unknown) =>
    typeof value === "string" ? value : Array.isArray(value) ? value.map(String) : undefined;
  parentPort.postMessage({
    kind: "invalid",
    total: result.errors.length,
    errors: result.errors.slice(0, maxErrors).map((error) => ({
      path: error.path.map((key) => (typeof key === "number" ? key : String(key))),
      name: error.name,
      argument: argumentOf(error.argument),
      message: error.message,
    })),
  });
}

const WORKER_SOURCE = `"use strict";(${checkInWorker.toString()})(require);`;

let validatorPath: string | undefined;
/** Resolved from here: the server build leaves the validator in node_modules. */
const validatorFile = () =>
  (validatorPath ??= createRequire(import.meta.url).resolve("jsonschema"));

function runCheck(text: string): Promise<TextCheck> {
  const workerData: WorkerData = {
    validatorPath: validatorFile(),
    schema: RESUME_SCHEMA,
    text,
    maxErrors: RESUME_IMPORT_LIMITS.problems,
  };
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    const finish = (check: TextCheck) => {
      clearTimeout(timer);
      resolve(check);
      void worker.terminate();
    };
    const timer = setTimeout(
      () => finish({ ok: false, reason: "tooSlow" }),
      RESUME_IMPORT_LIMITS.checkMs,
    );
    worker.once("message", (answer: WorkerAnswer) => {
      if (answer.kind === "valid") finish({ ok: true });
      else if (answer.kind === "invalid") {
        const errors = answer.errors.map(resumeErrorOf);
        finish({ ok: false, reason: "invalid", total: answer.total, errors });
      } else finish({ ok: false, reason: answer.kind });
    });
    worker.once("error", (error) => {
      console.error(JSON.stringify({ event: "resume_check_failed", error: String(error) }));
      finish({ ok: false, reason: "failed" });
    });
    worker.once("exit", () => finish({ ok: false, reason: "failed" }));
  });
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Whether `text` is JSON that the standard's schema accepts (a refusal names its first
 * RESUME_IMPORT_LIMITS.problems errors and counts the rest), checked off the event loop; one
 * check at a time.
 */
export function checkResumeText(text: string): Promise<TextCheck> {
  const check = queue.then(() => runCheck(text));
  queue = check.catch(() => undefined);
  return check;
}

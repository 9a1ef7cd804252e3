// The owner's JSON Resume import through its route's action, on both drivers: the review's
// inputs are refused before they are parsed, with a short answer and nothing stored changed;
// a valid file still previews and imports.
import { monitorEventLoopDelay } from "node:perf_hooks";

import { afterAll, beforeEach, afterEach, describe, expect, it } from "vitest";

import { action } from "../../app/routes/admin.profile.resume";
import type { Route } from "../../app/routes/+types/admin.profile.resume";
import { RESUME_IMPORT_LIMITS, RESUME_LIMIT_TEXT } from "../../app/features/profile/resume-limits";
import { RESUME_TEXT } from "../../app/features/profile/profile";
import { demoContent } from "../../content/demo";
import { seedDemoContent } from "../../database/seed.server";
import {
  deepNesting,
  heaviestWithinLimits,
  largeDocument,
  manyEntries,
  manyProblems,
  VALID_RESUME,
} from "../fixtures/resume-imports";
import { drivers, queryRows, routeContext, skipReason, type TestDatabase } from "./databases";

type Result = {
  ok: boolean;
  message?: string;
  errors?: Record<string, string>;
  preview?: { document: string; experiences: { to: string[] } };
};

const FINGERPRINT = `select ${["profile", "job_experiences", "education"]
  .map(
    (t) =>
      `(select md5(coalesce(string_agg(r.ctid::text || r.xmin::text, ',' order by r.ctid), '')) from ${t} r) as ${t}`,
  )
  .join(", ")}`;

/** Each import's size, time and the event loop's longest stall meanwhile, printed at the end. */
const figures: string[] = [];

async function post(database: TestDatabase, label: string, fields: Record<string, string | File>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request("http://localhost/admin/profile/resume", {
    method: "POST",
    body: form,
  });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const answer = (await action({
    request,
    context: routeContext(database),
    params: {},
  } as unknown as Route.ActionArgs)) as { init: { status: number } | null; data: Result };
  const ms = performance.now() - started;
  delay.disable();
  const size = JSON.stringify(answer.data).length;
  figures.push(
    `  ${label.padEnd(44)} ${String(answer.init?.status ?? 200).padStart(3)} ${ms.toFixed(0).padStart(6)} ms  answer ${String(size).padStart(6)} B  loop delay max ${(delay.max / 1e6).toFixed(1)} ms`,
  );
  return { status: answer.init?.status ?? 200, result: answer.data, size };
}

const file = (text: string) => new File([text], "resume.json", { type: "application/json" });

for (const driver of drivers) {
  const reason = skipReason(driver);
  if (reason !== null) {
    console.log(`The JSON Resume import on ${driver.name} is not tested here: ${reason}.`);
    continue;
  }
  describe(`the JSON Resume import on ${driver.name}`, () => {
    let database: TestDatabase;
    let before: unknown;
    beforeEach(async () => {
      database = await driver.fresh();
      await seedDemoContent(database.db, demoContent);
      before = await queryRows(database.db, FINGERPRINT);
    });
    afterEach(() => database.dispose());

    const unchanged = async () => expect(await queryRows(database.db, FINGERPRINT)).toEqual(before);

    it("refuses 100,000 entries in 961 KB at the 101st, naming the limit", async () => {
      const answer = await post(database, `${driver.name}: 961 KB, 100,000 entries`, {
        intent: "preview",
        file: file(manyEntries()),
      });
      expect(answer.status).toBe(400);
      expect(answer.result).toMatchObject({
        ok: false,
        message: RESUME_LIMIT_TEXT.tooManyEntries("work"),
      });
      expect(answer.size).toBeLessThan(1_000);
      await unchanged();
    });

    it("refuses a member nested 300,000 deep in 600 KB, naming the limit", async () => {
      for (const intent of ["preview", "confirm"]) {
        const text = deepNesting();
        const fields: Record<string, string | File> =
          intent === "preview" ? { file: file(text) } : { document: text };
        const answer = await post(database, `${driver.name}: 600 KB, 300,000 deep (${intent})`, {
          intent,
          ...fields,
        });
        expect(answer.status).toBe(400);
        expect(answer.result).toMatchObject({ ok: false, message: RESUME_LIMIT_TEXT.tooDeep });
      }
      await unchanged();
    });

    it("refuses a confirmation whose document is over the limit, unread", async () => {
      const text = largeDocument(RESUME_IMPORT_LIMITS.bytes + 1);
      const answer = await post(database, `${driver.name}: confirm, 1 MB + 1 byte`, {
        intent: "confirm",
        document: text,
      });
      expect(answer.status).toBe(413);
      expect(answer.result).toMatchObject({
        ok: false,
        message: RESUME_LIMIT_TEXT.confirmTooLarge,
      });
      await unchanged();
    });

    it("names the first 20 of 500 problems and counts the rest", async () => {
      const answer = await post(database, `${driver.name}: 500 problems`, {
        intent: "preview",
        file: file(manyProblems()),
      });
      expect(answer.status).toBe(400);
      expect(answer.result.message).toBe(
        `${RESUME_LIMIT_TEXT.moreProblems(500)} ${RESUME_TEXT.invalid}`,
      );
      expect(Object.keys(answer.result.errors ?? {})).toHaveLength(RESUME_IMPORT_LIMITS.problems);
      expect(answer.result.errors?.["work[0].name"]).toBe("must be text.");
      // The heaviest check within the limits: about 30,000 problems, still 20 named.
      const heaviest = await post(database, `${driver.name}: heaviest within the limits`, {
        intent: "preview",
        file: file(heaviestWithinLimits()),
      });
      expect(heaviest.status).toBe(400);
      expect(Object.keys(heaviest.result.errors ?? {})).toHaveLength(RESUME_IMPORT_LIMITS.problems);
      expect(heaviest.size).toBeLessThan(5_000);
      await unchanged();
    });

    it("still previews and imports a valid file, its preview's document confirmed as sent", async () => {
      const preview = await post(database, `${driver.name}: valid file (preview)`, {
        intent: "preview",
        file: file(VALID_RESUME),
      });
      expect(preview.status, JSON.stringify(preview.result)).toBe(200);
      expect(preview.result.preview?.experiences.to).toEqual([
        "Senior Backend Developer at Liffey Systems",
      ]);
      await unchanged();
      const confirmed = await post(database, `${driver.name}: valid file (confirm)`, {
        intent: "confirm",
        document: preview.result.preview!.document,
      });
      expect(confirmed).toMatchObject({ status: 200, result: { message: RESUME_TEXT.imported } });
      const jobs = await queryRows<{ company: string }>(
        database.db,
        "select company from job_experiences",
      );
      expect(jobs.map((j) => j.company)).toEqual(["Liffey Systems"]);
    });
  });
}

afterAll(() => {
  console.log(
    ["JSON Resume imports (status, time, answer size, event-loop stall):", ...figures].join("\n"),
  );
});

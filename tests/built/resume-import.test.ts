// The review's JSON Resume inputs posted by the signed-in owner to the real import route of the
// production bundle, as the editor's form sends them: each is refused at once with a short,
// clear answer and nothing changed, while the event loop keeps answering /healthz. The figures
// (time, answer size, the event loop's stalls, /healthz meanwhile) are printed.
import { monitorEventLoopDelay } from "node:perf_hooks";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { bodyTooLargeText } from "../../app/lib/limits";
import {
  RESUME_IMPORT_BODY_LIMIT,
  RESUME_LIMIT_TEXT,
} from "../../app/features/profile/resume-limits";
import {
  deepNesting,
  heaviestWithinLimits,
  largeDocument,
  manyEntries,
  manyProblems,
  VALID_RESUME,
} from "../fixtures/resume-imports";
import { openSite, type Site } from "./site";

/** The fetcher's request: the route's single-fetch twin. */
const PATH = "/admin/profile/resume.data";
/** Far above what a refusal takes (milliseconds), far below what the review measured (88.9 s). */
const QUICK_MS = 5_000;

async function multipart(fields: Record<string, string | File>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    headers: { "content-type": request.headers.get("content-type")! },
    body: new Uint8Array(await request.arrayBuffer()),
  };
}
const file = (text: string) => new File([text], "resume.json", { type: "application/json" });

let site: Site;
const figures: string[] = [];

/** Posts while /healthz is asked every 10 ms, and notes the import's and /healthz's times. */
async function timedImport(label: string, fields: Record<string, string | File> | null) {
  const { headers, body } = fields ? await multipart(fields) : { headers: {}, body: undefined };
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const health: number[] = [];
  let running = true;
  const healthLoop = (async () => {
    while (running) {
      const t = performance.now();
      await site.probe("GET /healthz (during an import)", { path: "/healthz" });
      health.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const started = performance.now();
  // No fields: the machine's own noise, the same time with no import, for comparison.
  const answer = fields
    ? await site.probe(`POST ${PATH} (${label})`, {
        method: "POST",
        path: PATH,
        owner: true,
        headers,
        body,
      })
    : await new Promise<{ status: number; text: string }>((resolve) =>
        setTimeout(() => resolve({ status: 0, text: "" }), 700),
      );
  const ms = performance.now() - started;
  running = false;
  await healthLoop;
  delay.disable();
  health.sort((a, b) => a - b);
  figures.push(
    `  ${label.padEnd(34)} ${String(answer.status).padStart(3)} ${ms.toFixed(0).padStart(6)} ms ${String(answer.text.length).padStart(7)} B   loop p99 ${(delay.percentile(99) / 1e6).toFixed(1).padStart(5)} max ${(delay.max / 1e6).toFixed(1).padStart(5)} ms   /healthz ×${health.length} max ${(health.at(-1) ?? 0).toFixed(1)} ms`,
  );
  return { ...answer, ms };
}

describe("the JSON Resume import of the built server", () => {
  beforeAll(async () => {
    site = await openSite("pglite");
  });
  afterAll(async () => {
    const summary = site.summary();
    // After closing: the site keeps the console's lines to itself while it runs.
    await site.close();
    console.log(
      [
        "JSON Resume imports, built server (status, time, answer, event-loop delay, /healthz meanwhile):",
        ...figures,
        summary,
      ].join("\n"),
    );
  });

  it("measures the event loop with no import, for comparison", async () => {
    expect((await timedImport("no import (700 ms)", null)).status).toBe(0);
  });

  it("refuses 100,000 entries in 961 KB quickly, naming the limit", async () => {
    const answer = await timedImport("961 KB, 100,000 entries", {
      intent: "preview",
      file: file(manyEntries()),
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(RESUME_LIMIT_TEXT.tooManyEntries("work"));
    expect(answer.text.length).toBeLessThan(2_000);
    expect(answer.ms).toBeLessThan(QUICK_MS);
  });

  it("refuses a member 300,000 deep in 600 KB quickly, previewed or confirmed", async () => {
    for (const intent of ["preview", "confirm"]) {
      const text = deepNesting();
      const answer = await timedImport(`600 KB, 300,000 deep (${intent})`, {
        intent,
        ...(intent === "preview" ? { file: file(text) } : { document: text }),
      });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(RESUME_LIMIT_TEXT.tooDeep);
      expect(answer.ms).toBeLessThan(QUICK_MS);
    }
  });

  it("refuses a confirmation over the route's limit unread (413)", async () => {
    const answer = await timedImport("confirm, 2 MB document", {
      intent: "confirm",
      document: largeDocument(2_000_000),
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toEqual({
      ok: false,
      error: bodyTooLargeText(RESUME_IMPORT_BODY_LIMIT),
    });
  });

  it("names 20 of many problems, the check off the event loop", async () => {
    const problems = await timedImport("500 problems", {
      intent: "preview",
      file: file(manyProblems()),
    });
    expect(problems.status).toBe(400);
    expect(problems.text).toContain(RESUME_LIMIT_TEXT.moreProblems(500));
    expect(problems.text.length).toBeLessThan(5_000);
    const heaviest = await timedImport("heaviest within the limits", {
      intent: "preview",
      file: file(heaviestWithinLimits()),
    });
    expect(heaviest.status).toBe(400);
    expect(heaviest.text.length).toBeLessThan(5_000);
  });

  it("still previews and imports a valid file", async () => {
    const preview = await timedImport("valid file (preview)", {
      intent: "preview",
      file: file(VALID_RESUME),
    });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("Senior Backend Developer at Liffey Systems");
    const confirm = await site.probe(`POST ${PATH} (valid file, confirm)`, {
      method: "POST",
      path: PATH,
      owner: true,
      ...(await multipart({ intent: "confirm", document: VALID_RESUME })),
      mayChange: ["job_experiences", "education"],
    });
    expect(confirm.status).toBe(200);
    const jobs = await site.sql<{ company: string }>("select company from job_experiences");
    expect(jobs.map((j) => j.company)).toEqual(["Liffey Systems"]);
  });
});

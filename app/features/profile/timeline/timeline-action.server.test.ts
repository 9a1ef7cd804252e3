import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { freshPglite, type TestDatabase } from "../../../../tests/integration/databases";
import { editTimeline } from "./timeline-action.server";
import { listEntries } from "./timeline.server";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("a timeline's forms, one code for both kinds", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshPglite();
  });
  afterEach(() => database.dispose());

  it("adds, saves, moves and deletes education by the descriptor's field names", async () => {
    const { db } = database;
    const fields = { degree: "BSc", institution: "TU Dublin", from: "2015", to: "2019" };
    expect(await editTimeline(db, "education", form({ intent: "add", ...fields }))).toEqual({
      status: 200,
      result: { form: "education-new", ok: true, message: "Added." },
    });
    await editTimeline(db, "education", form({ intent: "add", ...fields, degree: "MSc" }));
    const [first, second] = await listEntries(db, "education");
    expect(first).toEqual({ id: 1, ...fields, current: false });

    const saved = await editTimeline(
      db,
      "education",
      form({ intent: "save", id: "2", ...fields, degree: "MSc", to: "", current: "on" }),
    );
    expect(saved.result).toEqual({ form: "education-2", ok: true, message: "Saved." });
    await editTimeline(db, "education", form({ intent: "up", id: String(second!.id) }));
    expect((await listEntries(db, "education")).map((e) => [e.degree, e.to, e.current])).toEqual([
      ["MSc", null, true],
      ["BSc", "2019", false],
    ]);

    const asked = await editTimeline(db, "education", form({ intent: "ask", id: "1" }));
    expect(asked.result).toEqual({ form: "education-1", ok: true, confirmDelete: true });
    const deleted = await editTimeline(db, "education", form({ intent: "delete", id: "1" }));
    expect(deleted.result).toEqual({ form: "education-deleted", ok: true, message: "Deleted." });
    expect(await listEntries(db, "education")).toHaveLength(1);
  });

  it("names each refused field, keeps what was typed, and knows only its own buttons", async () => {
    const { db } = database;
    const typed = { intent: "add", title: "Dev", company: "", from: "2020", to: "" };
    const refused = await editTimeline(db, "experience", form(typed));
    expect(refused.status).toBe(400);
    expect(refused.result.errors).toEqual({
      company: "Company is required.",
      to: "Enter when it ended, or tick the box if it has not.",
    });
    expect(refused.result.values).toEqual(typed);

    for (const intent of ["add-experience", "upload", ""]) {
      expect((await editTimeline(db, "experience", form({ intent }))).result).toEqual({
        form: "form",
        ok: false,
        message: "Unknown action.",
      });
    }
    const job = { title: "Dev", company: "Acme", from: "2020", to: "2021" };
    const gone = await editTimeline(db, "experience", form({ intent: "save", id: "9", ...job }));
    expect(gone.status).toBe(404);
    expect(await listEntries(db, "experience")).toEqual([]);
  });
});

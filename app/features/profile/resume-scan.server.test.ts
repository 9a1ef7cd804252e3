import { describe, expect, it } from "vitest";

import {
  byteLength,
  deepNesting,
  manyEntries,
  manyProblems,
  VALID_RESUME,
} from "../../../tests/fixtures/resume-imports";
import sampleResume from "@jsonresume/schema/sample.resume.json";
import { RESUME_IMPORT_LIMITS, RESUME_LIMIT_TEXT } from "./resume-limits";
import { scanJson } from "./resume-scan.server";

describe("the count before a JSON Resume is parsed", () => {
  it("stops at the 101st of 100,000 entries, naming the list and the limit", () => {
    const text = manyEntries();
    expect(byteLength(text)).toBe(961_000);
    const scan = scanJson(text);
    expect(scan).toMatchObject({ ok: false, message: RESUME_LIMIT_TEXT.tooManyEntries("work") });
    expect(scan.ok ? "" : scan.message).toContain("at most 100 ");
    // It stopped at the comma that opens the 101st entry (each entry and its comma is 8
    // characters), not reading the other 99,899.
    const entriesAt = text.indexOf('"work":[') + '"work":['.length;
    expect(scan.ok ? 0 : scan.stoppedAt).toBe(entriesAt + RESUME_IMPORT_LIMITS.entries * 8 - 1);
  });

  it("stops at the 33rd level of 300,000, naming the limit", () => {
    const text = deepNesting();
    expect(byteLength(text)).toBe(600_000);
    const scan = scanJson(text);
    expect(scan).toMatchObject({ ok: false, message: RESUME_LIMIT_TEXT.tooDeep });
    expect(scan.ok ? "" : scan.message).toContain("more than 32 levels");
    // The document is the first level, so its member's 32nd list is the 33rd.
    const listsAt = text.indexOf('"x":[') + '"x":'.length;
    expect(scan.ok ? 0 : scan.stoppedAt).toBe(listsAt + RESUME_IMPORT_LIMITS.depth - 1);
  });

  it("takes exactly the limits, and names a nested list or an object's members", () => {
    const list = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(",")}]`;
    expect(scanJson(`{"work":${list(100)}}`)).toEqual({ ok: true });
    expect(scanJson(`{"work":[{"highlights":${list(101)}}]}`)).toMatchObject({
      message: RESUME_LIMIT_TEXT.tooManyEntries("work[0].highlights"),
    });
    expect(scanJson(`{"work":[{},{},{"a\\"b":${list(101)}}]}`)).toMatchObject({
      message: RESUME_LIMIT_TEXT.tooManyEntries('work[2].a"b'),
    });
    const members = (n: number) =>
      `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",")}}`;
    expect(scanJson(`{"basics":${members(100)}}`)).toEqual({ ok: true });
    expect(scanJson(`{"basics":${members(101)}}`)).toMatchObject({
      message: RESUME_LIMIT_TEXT.tooManyEntries("basics"),
    });
    expect(scanJson(list(101))).toMatchObject({
      message: RESUME_LIMIT_TEXT.tooManyEntries("(document)"),
    });
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    expect(scanJson(nested(32))).toEqual({ ok: true });
    expect(scanJson(nested(33))).toMatchObject({ message: RESUME_LIMIT_TEXT.tooDeep });
  });

  it("is not misled by commas, brackets and quotes inside strings", () => {
    const tricky = JSON.stringify({
      basics: { summary: `,[{"\\`.repeat(5000), name: '"]}' },
      work: [{ name: "a,b,c", highlights: ["[[[", "\\", '\\"'] }],
    });
    expect(scanJson(tricky)).toEqual({ ok: true });
    expect(scanJson(VALID_RESUME)).toEqual({ ok: true });
    expect(scanJson(JSON.stringify(sampleResume, null, 2))).toEqual({ ok: true });
    expect(scanJson(manyProblems())).toEqual({ ok: true });
  });
});

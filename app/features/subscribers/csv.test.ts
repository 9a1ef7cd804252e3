import { describe, expect, it } from "vitest";

import { parseCsv, toCsv } from "./csv";

describe("CSV (RFC 4180)", () => {
  it("reads quoted fields with commas, line breaks and doubled quotes, CRLF or LF", () => {
    const text =
      '\uFEFFemail,name\r\nana@example.com,"Ana, ""A"""\nbo@example.com,"two\r\nlines"\r\n';
    expect(parseCsv(text)).toEqual([
      ["email", "name"],
      ["ana@example.com", 'Ana, "A"'],
      ["bo@example.com", "two\r\nlines"],
    ]);
    expect(parseCsv("a,b")).toEqual([["a", "b"]]);
    expect(parseCsv("a,\n,b\n")).toEqual([
      ["a", ""],
      ["", "b"],
    ]);
  });

  it("writes what it reads back, and defuses spreadsheet formulas", () => {
    const rows = [["a,b", 'say "hi"', "line\nbreak", "plain"]];
    expect(toCsv(rows)).toBe('"a,b","say ""hi""","line\nbreak",plain\r\n');
    expect(parseCsv(toCsv(rows))).toEqual(rows);
    expect(toCsv([["=HYPERLINK(1)", "+1", "@x", "-2"]])).toBe("'=HYPERLINK(1),'+1,'@x,'-2\r\n");
  });
});

import { describe, expect, it } from "vitest";

import { readListRows } from "./list-fields";

describe("a list's fields in a form", () => {
  it("are read by row number, in order, with absent fields empty", () => {
    const values = {
      name: "Alex",
      "skills.10.name": "SQL",
      "skills.2.name": "Go",
      "skills.2.icon": "code",
      "tools.0.name": "Git",
    };
    expect(readListRows(values, "skills", ["icon", "name"])).toEqual([
      { number: 2, item: { icon: "code", name: "Go" } },
      { number: 10, item: { icon: "", name: "SQL" } },
    ]);
  });

  it("count rows the way the server does, on both ends: at most three digits", () => {
    const values = { "socials.1234.url": "https://x.example", "socials.x.url": "y" };
    expect(readListRows(values, "socials", ["url"])).toEqual([]);
  });
});

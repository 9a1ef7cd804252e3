import { describe, expect, it } from "vitest";

import { textOfHtml } from "./rules";
import { postSchema } from "./schema";

describe("postSchema", () => {
  it("accepts a post and trims title and description", () => {
    expect(postSchema.parse({ title: "  Hi  ", description: " d ", content: "<p>x</p>" })).toEqual({
      title: "Hi",
      description: "d",
      content: "<p>x</p>",
      // Absent publishing fields: the slug from the title, no tags, the state as it is.
      slug: null,
      tags: null,
    });
    expect(postSchema.parse({ title: "Hi", content: "<p>x</p>" }).description).toBe("");
  });

  it.each([
    [{ title: "   ", content: "<p>x</p>" }, "Title is required."],
    [{ title: "t", content: "<p></p><p> </p><p>&nbsp;</p>" }, "Content is required."],
    [{ title: "t".repeat(301), content: "<p>x</p>" }, "Title can be at most 300 characters."],
    [
      { title: "t", description: "d".repeat(1001), content: "<p>x</p>" },
      "Description can be at most 1000 characters.",
    ],
    [{ title: 5, content: "<p>x</p>" }, "Title must be text."],
    [{ title: "a\0b", content: "<p>x</p>" }, "Title contains a null character."],
    [
      { title: "t", description: "\0", content: "<p>x</p>" },
      "Description contains a null character.",
    ],
    [{ title: "t", content: "<p>x\0</p>" }, "Content contains a null character."],
  ])("rejects %j with %s", (input, message) => {
    const result = postSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it("reads the text of HTML", () => {
    expect(textOfHtml("<p></p><p><br></p>")).toBe("");
    expect(textOfHtml("<h1>A</h1><p>b</p>")).toBe("Ab");
  });
});

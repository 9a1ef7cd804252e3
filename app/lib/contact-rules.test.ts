import { describe, expect, it } from "vitest";

import { CONTACT_TEXT, contactBoundsProblem, contactProblem } from "./contact-rules";

const ok = { name: "Ana", email: "ana@example.com", message: "Hola" };

describe("contactProblem", () => {
  it("passes a complete message", () => expect(contactProblem(ok)).toBeNull());
  it("asks for every field first, even when the e-mail is also wrong", () => {
    expect(contactProblem({ ...ok, name: "   " })).toBe(CONTACT_TEXT.missing);
    expect(contactProblem({ ...ok, email: "", message: "x" })).toBe(CONTACT_TEXT.missing);
    expect(contactProblem({ name: "a", email: "not-an-email", message: " \n " })).toBe(
      CONTACT_TEXT.missing,
    );
  });
  it.each([
    "ana",
    "ana@",
    "ana@example",
    "an a@example.com",
    "ana@exa mple.com",
    "@example.com",
    "ana@.com",
  ])("rejects the e-mail %j", (email) =>
    expect(contactProblem({ ...ok, email })).toBe(CONTACT_TEXT.invalidEmail),
  );
  it("accepts surrounding spaces around a valid e-mail", () => {
    expect(contactProblem({ ...ok, email: "  ana@example.com " })).toBeNull();
  });
});

describe("contactBoundsProblem", () => {
  it("bounds name, e-mail and message", () => {
    expect(contactBoundsProblem(ok)).toBeNull();
    expect(contactBoundsProblem({ ...ok, name: "n".repeat(201) })).toMatch(/name/);
    expect(contactBoundsProblem({ ...ok, email: `${"e".repeat(320)}@x.io` })).toMatch(/e-mail/);
    expect(contactBoundsProblem({ ...ok, message: "m".repeat(10_001) })).toBe(
      "The message can be at most 10,000 characters.",
    );
    expect(contactBoundsProblem({ ...ok, message: "m".repeat(10_000) })).toBeNull();
  });
  it("refuses U+0000, which PostgreSQL cannot store", () => {
    expect(contactBoundsProblem({ ...ok, name: "A\0na" })).toBe(
      "The name contains a null character.",
    );
    expect(contactBoundsProblem({ ...ok, email: "a\0@x.io" })).toBe(
      "The e-mail contains a null character.",
    );
    expect(contactBoundsProblem({ ...ok, message: "\0" })).toBe(
      "The message contains a null character.",
    );
  });
});

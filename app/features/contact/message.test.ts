import { describe, expect, it } from "vitest";

import {
  checkContact,
  CONTACT_FIELDS,
  CONTACT_RULES,
  CONTACT_TEXT,
  contactBoundsProblem,
  contactProblem,
  readContactForm,
  trimContact,
} from "./message";

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
  it("builds each bound's text from the field's limit", () => {
    for (const [field, { maxLength }] of Object.entries(CONTACT_FIELDS)) {
      const over = { ...ok, [field]: `${"x".repeat(maxLength)}@x.io` };
      expect(contactBoundsProblem(over)).toContain(
        `at most ${maxLength.toLocaleString("en-US")} characters`,
      );
    }
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

describe("readContactForm and trimContact", () => {
  it("reads each field as text, a missing one or a file as empty", () => {
    const form = new FormData();
    form.set("name", " Ana ");
    form.set("email", new Blob(["ana@example.com"]));
    form.set("website", "bot");
    expect(readContactForm(form)).toEqual({ name: " Ana ", email: "", message: "" });
  });
  it("trims the fields and keeps nothing else", () => {
    expect(trimContact({ ...ok, name: " Ana\n", extra: "x" } as typeof ok)).toEqual(ok);
  });
});

describe("the texts", () => {
  it("keep the product's words", () => {
    expect(CONTACT_TEXT).toMatchObject({
      missing: "Por favor, completa todos los campos",
      invalidEmail: "Por favor, ingresa un email válido",
      failed: "Error al enviar el mensaje. Por favor, intenta nuevamente.",
      sent: "¡Mensaje enviado exitosamente! Te responderé pronto.",
      successTitle: "¡Éxito!",
      errorTitle: "Error",
      sending: "Enviando...",
      send: "Send Message",
    });
  });
});

describe("checkContact as the browser's script runs it", () => {
  it("gives the same verdicts from its own source and the rules sent as JSON", () => {
    // The site script inlines the function's source and its rules as JSON: nothing else.
    const inlined = new Function(`return (${checkContact.toString()})`)() as typeof checkContact;
    const rules = JSON.parse(JSON.stringify(CONTACT_RULES)) as typeof CONTACT_RULES;
    for (const input of [
      ok,
      { ...ok, name: " " },
      { ...ok, email: "ana@example" },
      { ...ok, email: "an a@example.com" },
      { name: "a", email: "bad", message: "\n" },
    ]) {
      expect(inlined(input, rules)).toBe(contactProblem(input));
    }
    expect(inlined({ ...ok, email: "x" }, rules)).toBe(CONTACT_TEXT.invalidEmail);
  });
});

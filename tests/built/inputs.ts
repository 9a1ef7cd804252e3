// What the fuzzing sends: corpora, fast-check arbitraries, body encoders, and the few rules
// restated from the product (contact form, post) that tell which status an input must get.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import fc from "fast-check";
import { generatePath } from "react-router";

import { CONTACT_FIELDS } from "../../app/features/contact/message";
import { POST_BODY_LIMIT, POST_LIMITS } from "../../app/features/posts/rules";
import { BODY_LIMITS } from "../../app/lib/limits";
import { ROOT } from "./site";

const require = createRequire(import.meta.url);

/** The Big List of Naughty Strings (the npm package's blns.json, 461 strings). */
export const NAUGHTY: string[] = JSON.parse(
  readFileSync(require.resolve("big-list-of-naughty-strings/blns.json"), "utf8"),
);

/** DOMPurify's attack inputs, kept in the repository (tests/fixtures/README.md): inputs only. */
const XSS_FILE = path.join(ROOT, "tests/fixtures/xss/dompurify-vectors.json");
export const XSS: string[] = (
  JSON.parse(readFileSync(XSS_FILE, "utf8")) as { payload: string }[]
).map((v) => v.payload);
export const XSS_NOTE = `${XSS.length} DOMPurify vectors from ${path.relative(ROOT, XSS_FILE)}`;

/** Limits of the HTTP layer (server/http.ts): forms, and the post API's larger bodies. */
export const FORM_LIMIT = BODY_LIMITS.form;
export const POST_LIMIT = POST_BODY_LIMIT;

export const naughty = fc.constantFrom(...NAUGHTY);

/** Controls, U+0000 half the time: PostgreSQL's text cannot hold it, so it finds unguarded writes. */
const controlChar = fc.oneof(
  fc.constant("\u0000"),
  fc.integer({ min: 1, max: 0x1f }).map((c) => String.fromCharCode(c)),
);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Any text a field may hold: naughty strings, any code point, controls, lone surrogates, XSS. */
export const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: naughty },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 120 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), fc.oneof(controlChar, loneSurrogate), naughty)
      .map(([a, b, c]) => a + b + c),
  },
  { weight: 1, arbitrary: fc.constantFrom(...XSS) },
);

/** A naughty string repeated to `min`–`max` characters (limits are met at their edges). */
export const long = (min: number, max: number) =>
  fc
    .tuple(
      naughty.filter((s) => s.length > 0),
      fc.integer({ min, max }),
    )
    .map(([s, n]) => s.repeat(Math.ceil(n / s.length)).slice(0, n));

/** Percent-encodes the UTF-8 of `s` (lone surrogates as U+FFFD) leaving only unreserved characters. */
/**
 * A route parameter as React Router spells it in a path (`generatePath`): the canonical
 * spelling, which the server answers as it is. Any other spelling of the same value (`pct`'s,
 * say) answers 301 to this one.
 */
export function routeParam(s: string): string {
  return generatePath(":p", { p: s });
}

/** The path a client sends for `path`: dot segments (`/blog/..`) resolved as URLs resolve them. */
export const sentPath = (path: string) => new URL(path, "http://localhost").pathname;

export function pct(s: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export const utf8 = (s: string) => new TextEncoder().encode(s);

export type Entries = [string, string | File][];
/** Bytes fetch takes as a body. */
export type Bytes = Uint8Array<ArrayBuffer>;
export type Encoded = { body: Bytes; type: string };

/** A form as a browser would send it: urlencoded (files become their names) or multipart. */
export async function encodeForm(
  entries: Entries,
  as: "urlencoded" | "multipart",
): Promise<Encoded> {
  if (as === "urlencoded") {
    const params = new URLSearchParams(
      entries.map(([k, v]) => [k, typeof v === "string" ? v : v.name]),
    );
    return { body: utf8(params.toString()), type: "application/x-www-form-urlencoded" };
  }
  const form = new FormData();
  for (const [k, v] of entries) form.append(k, v);
  const response = new Response(form);
  return {
    body: new Uint8Array(await response.arrayBuffer()),
    type: response.headers.get("content-type")!,
  };
}

/** The form as the server's `request.formData()` reads it (the platform's parser). */
export function decodeForm({ body, type }: Encoded): Promise<FormData> {
  return new Response(body, { headers: { "content-type": type } }).formData();
}

const field = (form: FormData, key: string) => {
  const value = form.get(key);
  return typeof value === "string" ? value.trim() : "";
};

/**
 * The contact form's rules (docs/product.md#states, #limits): every field filled after
 * trimming, an e-mail of the form local@domain.tld without whitespace, and the server's bounds
 * on each field.
 */
export function contactIsValid(form: FormData): boolean {
  const name = field(form, "name");
  const email = field(form, "email");
  const message = field(form, "message");
  if (!name || !email || !message) return false;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return false;
  if ([name, email, message].some((value) => value.includes("\0"))) return false;
  return (
    name.length <= CONTACT_FIELDS.name.maxLength &&
    email.length <= CONTACT_FIELDS.email.maxLength &&
    message.length <= CONTACT_FIELDS.message.maxLength
  );
}

/** Fields around and over the form limit (a naughty string's UTF-8 may be 9 bytes encoded). */
export const huge = long(FORM_LIMIT / 8, FORM_LIMIT + 1024);

const contactValue = fc.oneof(
  { weight: 12, arbitrary: text },
  { weight: 2, arbitrary: long(100, 12_000) },
  { weight: 1, arbitrary: huge },
  { weight: 2, arbitrary: fc.constantFrom("", " ", "\t\n", "\u3000") },
);
const emailValue = fc.oneof(
  { weight: 3, arbitrary: fc.emailAddress() },
  { weight: 2, arbitrary: text.map((s) => `${s}@example.com`) },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: long(300, 400).map((s) => `${s}@example.com`) },
);

const nonBlank = text.filter((s) => s.trim() !== "");

/** A message that passes the form's rules, so that odd text reaches the database. */
const validContact: fc.Arbitrary<Entries> = fc
  .record({ name: nonBlank, email: fc.emailAddress(), message: nonBlank })
  .map((fields) => Object.entries(fields));

/** Contact form entries: the four fields (any may be missing), duplicates, extra names, files. */
const anyContact: fc.Arbitrary<Entries> = fc
  .record(
    {
      name: fc.option(contactValue, { nil: undefined, freq: 6 }),
      email: fc.option(emailValue, { nil: undefined, freq: 6 }),
      message: fc.option(contactValue, { nil: undefined, freq: 6 }),
      website: fc.option(fc.oneof(fc.constant(""), text), { nil: undefined, freq: 2 }),
      extra: fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom("name", "email", "message", "website"), naughty),
          contactValue,
        ),
        { maxLength: 3 },
      ),
      file: fc.option(fc.constantFrom("name", "email", "message"), { freq: 8 }),
    },
    { requiredKeys: ["extra"] },
  )
  .map(({ extra, file, ...fields }) => {
    const entries: Entries = [];
    // A file where text belongs comes first, so it is the value the server reads.
    if (file) entries.push([file, new File(["x"], "x.txt", { type: "text/plain" })]);
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) entries.push([k, v]);
    return [...entries, ...extra];
  });

export const contactEntries = fc.oneof(
  { weight: 1, arbitrary: validContact },
  { weight: 2, arbitrary: anyContact },
);

export const formEncoding = fc.constantFrom("urlencoded" as const, "multipart" as const);

/** JSON text from entries, so that keys like `__proto__` and duplicates survive as written. */
export const jsonObject = (entries: [string, unknown][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`).join(",")}}`;

const POLLUTING = ["__proto__", "constructor", "prototype"];
const pollution = fc.constantFrom(
  { polluted: true },
  { prototype: { polluted: true } },
  { toString: "x", valueOf: 1 },
  { constructor: { prototype: { polluted: true } } },
);

/** A post's body: right-shaped but fuzzed fields, wrong types, extra and polluting keys. */
export const postBody: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.record(
          {
            title: fc.oneof(
              { weight: 5, arbitrary: text },
              { weight: 1, arbitrary: long(POST_LIMITS.title - 2, POST_LIMITS.title + 2) },
            ),
            description: fc.oneof(
              { weight: 5, arbitrary: text },
              { weight: 1, arbitrary: fc.constant(null) },
              {
                weight: 1,
                arbitrary: long(POST_LIMITS.description - 2, POST_LIMITS.description + 2),
              },
            ),
            content: fc.oneof(
              { weight: 3, arbitrary: text },
              { weight: 3, arbitrary: text.map((t) => `<p>${t}</p>`) },
              { weight: 1, arbitrary: long(1000, 50_000).map((t) => `<p>${t}</p>`) },
            ),
          },
          { requiredKeys: [] },
        ),
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom(...POLLUTING, "id", "createdAt", "content_en", "contentEn"),
              naughty,
            ),
            fc.oneof(pollution, fc.jsonValue({ maxDepth: 2 })),
          ),
          { maxLength: 3 },
        ),
      )
      .map(([fields, extra]) => jsonObject([...Object.entries(fields), ...extra])),
  },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          title: fc.jsonValue({ maxDepth: 2 }),
          description: fc.jsonValue({ maxDepth: 2 }),
          content: fc.jsonValue({ maxDepth: 2 }),
        },
        { requiredKeys: [] },
      )
      .map((o) => jsonObject(Object.entries(o))),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "null") },
  { weight: 1, arbitrary: text },
);

const htmlText = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;|&#160;|\u00a0/g, " ")
    .trim();

/**
 * Whether a post body must be refused with 400 (wrong JSON, wrong types, a blank or too long
 * title or description, no visible content), or may pass (sanitizing can still empty it).
 */
export function postMustBeRefused(raw: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return true;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return true;
  const { title, description, content } = json as Record<string, unknown>;
  // Post limits count characters as code points (an emoji is one), unlike the contact form's.
  const characters = (s: string) => [...s.trim()].length;
  if (typeof title !== "string" || !title.trim() || characters(title) > POST_LIMITS.title)
    return true;
  if (description !== undefined && description !== null) {
    if (typeof description !== "string") return true;
    if (characters(description) > POST_LIMITS.description) return true;
  }
  if (
    [title, description, content].some((value) => typeof value === "string" && value.includes("\0"))
  )
    return true;
  return typeof content !== "string" || htmlText(content) === "";
}

/** A route id as fuzzed: real-looking ids, edges of the serial range, and naughty text. */
export const idText = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "0",
      "-1",
      "01",
      "1.0",
      "1e2",
      " 1",
      "+1",
      "0x1",
      "2147483647",
      "2147483648",
      "99999999999999999999",
      "1%",
      "Infinity",
      "NaN",
    ),
  },
  { weight: 3, arbitrary: naughty.filter((s) => s !== "" && s !== "." && s !== "..") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 20 }) },
);

/** Whether `id` is what the routes take for an id (a plain serial). */
export const isSerial = (id: string) => /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2 ** 31 - 1;

/** Content types, right and wrong, as a client might send them. */
export const contentType = fc.oneof(
  fc.constantFrom(
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json",
    "APPLICATION/JSON",
    "application/json; charset=utf-8",
    "application/json ;charset=utf-8",
    "application/jsonx",
    "application/json5",
    "application/x-www-form-urlencodedx",
    "text/plain",
    "text/plain; application/json",
    "text/html",
    "application/xml",
    "application/octet-stream",
    "multipart/mixed; boundary=x",
    "multipart/form-datax",
    "*/*",
    "json",
    "",
    ";",
  ),
  // Header values are bytes 0x20-0xFF and tabs; fetch trims the ends.
  naughty.filter((s) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s)),
  fc.string({ unit: "binary-ascii", maxLength: 30 }).filter((s) => /^[\t\x20-\xff]*$/.test(s)),
);

/** What the HTTP layer takes as a body: a form or JSON (server/http.ts), else 415. */
export const acceptedType = (type: string) =>
  /^(?:application\/x-www-form-urlencoded|multipart\/form-data|application\/json)\s*(?:;|$)/i.test(
    type.replace(/^[\t ]+|[\t ]+$/g, ""),
  );

/** Bytes that are not UTF-8: stray continuations, overlongs, surrogates, 0xFE/0xFF. */
export const invalidUtf8 = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        [0xff],
        [0xfe],
        [0xc0, 0x80],
        [0xe0, 0x80, 0x80],
        [0xed, 0xa0, 0x80],
        [0x80],
        [0xbf],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
        [0xe2, 0x82],
      ),
      fc.array(fc.integer({ min: 0x20, max: 0x7e }), { maxLength: 6 }),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => parts.flat());

/** Bytes spliced into a template: `before` + invalid UTF-8 + `after`. */
export const withInvalidUtf8 = (before: string, after: string) =>
  invalidUtf8.map((bytes) => new Uint8Array([...utf8(before), ...bytes, ...utf8(after)]));

export const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
export const deepObject = (depth: number) => '{"title":'.repeat(depth) + '"x"' + "}".repeat(depth);

// Every endpoint that takes input (docs/product.md#robustness), fuzzed in process against the
// production bundle (build/server/index.js) on a fresh PGlite and a fresh PostgreSQL database.
// Each request goes through `probe` (site.ts), which checks the four properties every answer
// keeps: no 5xx, no stored row changed by a refused (4xx) request or by any read, nothing
// internal in the body, an X-Request-Id of our own. The tests add the status each input must
// get.
//
// FUZZ_SEED=<n> replays a run (fast-check prints the seed and path of a failure);
// FUZZ_RUNS=<n> changes the runs per property (default 100).
import { createHash } from "node:crypto";

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { TEST_DATABASE_URL } from "../integration/databases";
import {
  acceptedType,
  contactEntries,
  contactIsValid,
  contentType,
  decodeForm,
  deepArray,
  deepObject,
  encodeForm,
  FORM_LIMIT,
  formEncoding,
  huge,
  idText,
  isSerial,
  jsonObject,
  long,
  naughty,
  NAUGHTY,
  pct,
  POST_LIMIT,
  routeParam,
  sentPath,
  postBody,
  postMustBeRefused,
  text,
  utf8,
  withInvalidUtf8,
  XSS,
  XSS_NOTE,
  type Bytes,
  type Entries,
} from "./inputs";
import { OWNER_PASSWORD, openSite, SITE_URL, type Probe, type Site, type Table } from "./site";

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const runs = (n = RUNS) => ({ numRuns: n, seed: SEED });

const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";

/** A header value fetch accepts (no CR, LF or NUL; bytes up to 0xFF). */
const headerSafe = (s: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s);

const json = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * Scripts that could run: every <script> on a page carries a CSP nonce or is one the response's
 * policy allows by the hash of its text (JSON-LD, which never runs, excepted), and no tag outside
 * scripts has an on* handler or a script URL. Attribute values are escaped by React, so a tag
 * ends at the first ">".
 */
function runnableInjections(html: string, policy: string | null = ""): string[] {
  const allowed = (content: string) =>
    (policy ?? "").includes(`'sha256-${createHash("sha256").update(content).digest("base64")}'`);
  const unsigned = [...html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/gi)]
    .filter(
      ([, tag = "", content = ""]) =>
        !/\snonce="[^"]+"/.test(tag) &&
        !/type="application\/ld\+json"/.test(tag) &&
        !allowed(content),
    )
    .map(([, tag = ""]) => tag);
  const outside = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
  // A tag's attributes as a browser reads them: a quoted value is one value, whatever it holds.
  const tags = [
    ...outside.matchAll(
      /<[a-z][^\s>/]*((?:\s*[^\s"'=<>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/?>/gi,
    ),
  ];
  const found: string[] = [];
  for (const [tag, attributes = ""] of tags) {
    for (const [, name = "", ...values] of attributes.matchAll(
      /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g,
    )) {
      const value = decodeEntities(values.find((v) => v !== undefined) ?? "")
        // Browsers skip control characters and spaces in a URL's scheme (" java\tscript:").
        // eslint-disable-next-line no-control-regex -- those characters are the point here
        .replace(/[\u0000-\u0020]/g, "")
        .toLowerCase();
      if (/^on/i.test(name)) found.push(tag);
      else if (
        /^(?:href|src|action|formaction|xlink:href|srcset)$/i.test(name) &&
        /^(?:javascript|vbscript|data:text\/html)/.test(value)
      )
        found.push(tag);
    }
  }
  return [...unsigned, ...found];
}

/** Character references in an attribute value, which the browser decodes before using it. */
function decodeEntities(value: string): string {
  return value.replace(
    /&(?:#x([0-9a-f]+)|#(\d+)|(colon|tab|newline|amp|lt|gt|quot));?/gi,
    (all, hex, dec, name) => {
      if (hex) return String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
      if (dec) return String.fromCodePoint(Math.min(Number(dec), 0x10ffff));
      const named: Record<string, string> = {
        colon: ":",
        tab: "\t",
        newline: "\n",
        amp: "&",
        lt: "<",
        gt: ">",
        quot: '"',
      };
      return named[String(name).toLowerCase()] ?? all;
    },
  );
}

describe("the injection detector", () => {
  it("finds what a browser would run, and not text that only mentions it", () => {
    expect(runnableInjections('<img src=x onerror="alert(1)">')).toHaveLength(1);
    expect(runnableInjections("<a href='&#106;avascript:alert(1)'>x</a>")).toHaveLength(1);
    expect(runnableInjections('<a href=" java\tscript:alert(1)">x</a>')).toHaveLength(1);
    expect(runnableInjections("<script>alert(1)</script>")).toHaveLength(1);
    expect(runnableInjections('<script nonce="abc">x</script><p>onload=1</p>')).toEqual([]);
    // A script the policy lists by hash (the site's own), and one it does not.
    const policy = `script-src 'sha256-${createHash("sha256").update("x").digest("base64")}'`;
    expect(runnableInjections("<script>x</script>", policy)).toEqual([]);
    expect(runnableInjections("<script>y</script>", policy)).toHaveLength(1);
    expect(
      runnableInjections('<meta content="&lt;IMG SRC=javascript:alert(1)&gt; onerror=x"/>'),
    ).toEqual([]);
  });
});

const DATABASES = [
  { kind: "pglite" as const, title: "built server on PGlite", skip: null },
  {
    kind: "postgres" as const,
    title: "built server on PostgreSQL",
    skip: TEST_DATABASE_URL ? null : "TEST_DATABASE_URL is not set",
  },
];

console.log(
  `fast-check seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${RUNS} runs per property; corpora: ${NAUGHTY.length} naughty strings, ${XSS_NOTE}`,
);

for (const database of DATABASES) {
  if (database.skip) console.log(`Skipped: ${database.title}: ${database.skip}`);

  describe.skipIf(database.skip !== null)(`${database.title}: every input, fuzzed`, () => {
    let site: Site;
    /** A failed contact message, the one thing the retry endpoint acts on. */
    let failedMessage = 0;

    const form = async (
      label: string,
      path: string,
      entries: Entries,
      as: "urlencoded" | "multipart",
      extra: Omit<Probe, "path" | "body"> = {},
    ) => {
      const encoded = await encodeForm(entries, as);
      const answer = await site.probe(label, {
        method: "POST",
        path,
        ...extra,
        headers: { "content-type": encoded.type, ...extra.headers },
        body: encoded.body,
      });
      return { encoded, answer };
    };
    const postJson = (label: string, method: string, path: string, body: string, owner = true) =>
      site.probe(label, {
        method,
        path,
        owner,
        headers: { "content-type": JSON_TYPE },
        body: utf8(body),
        mayChange: ["blog_posts", "blog_stats"],
      });
    /** Whether the post exists outside the trash (the owner may edit and delete it). */
    const postExists = async (id: string) =>
      isSerial(id) &&
      (
        await site.sql<{ n: number }>(
          `select count(*)::int as n from blog_posts where id = ${id} and status <> 'trashed'`,
        )
      )[0]!.n > 0;
    type NamedPost = { current: string; status: string; trashed_status: string | null };
    /**
     * What `/blog/{segment}` answers: its post's slug 200; the post's id, an old slug or the slug
     * in other letter case 301; any of those of a post in the trash 410 if visitors could read
     * it before, else 404; anything else 404.
     */
    const postPageStatus = async (segment: string) => {
      if (await postExists(segment)) return 301;
      const columns = "p.slug as current, p.status, p.trashed_status";
      const [named] = isSerial(segment)
        ? await site.sql<NamedPost>(`select ${columns} from blog_posts p where id = ${segment}`)
        : (
            await site.sql<NamedPost & { slug: string }>(
              `select s.slug, ${columns} from post_slugs s join blog_posts p on p.id = s.post_id`,
            )
          ).filter((row) => row.slug === segment.toLowerCase());
      if (named === undefined) return 404;
      if (named.status === "trashed") return named.trashed_status === "published" ? 410 : 404;
      return named.current === segment ? 200 : 301;
    };

    beforeAll(async () => {
      site = await openSite(database.kind);
      // Posts 1-12 for the id routes to find.
      for (let i = 1; i <= 12; i++) {
        const answer = await postJson(
          "POST /api/posts (setup)",
          "POST",
          "/api/posts",
          JSON.stringify({ title: `Post ${i}`, description: "", content: `<p>Body ${i}</p>` }),
        );
        expect(answer.status).toBe(201);
      }
      const [row] = await site.sql<{ id: number }>(
        `insert into contact_messages (name, email, message, client_address, status, attempts)
         values ('Failed', 'failed@example.com', 'never sent', '192.0.2.1', 'failed', 10) returning id`,
      );
      failedMessage = row!.id;
    });

    afterAll(async () => {
      if (!site) return;
      const summary = site.summary();
      await site.close();
      console.log(`${database.title}\n${summary}`);
    });

    /** What a contact submission must get: 413 over the limit, else 200 when valid, else 400. */
    const contactStatus = async (...form: Parameters<typeof encodeForm>) => {
      const encoded = await encodeForm(...form);
      if (encoded.body.byteLength > FORM_LIMIT) return 413;
      return contactIsValid(await decodeForm(encoded)) ? 200 : 400;
    };

    it("POST /?index, the contact form without JavaScript, stores exactly the valid messages", async () => {
      await fc.assert(
        fc.asyncProperty(contactEntries, formEncoding, async (entries, as) => {
          const expected = await contactStatus(entries, as);
          const { answer } = await form("POST /?index (contact, no JS)", "/?index", entries, as, {
            mayChange: ["contact_messages"],
          });
          expect(answer.status).toBe(expected);
          if (expected === 200) expect(answer.changed).toEqual(["contact_messages"]);
        }),
        runs(),
      );
    });

    it("POST /api/contact stores exactly the valid messages and says why it refuses the rest", async () => {
      await fc.assert(
        fc.asyncProperty(contactEntries, formEncoding, async (entries, as) => {
          const expected = await contactStatus(entries, as);
          const { answer } = await form("POST /api/contact", "/api/contact", entries, as, {
            mayChange: ["contact_messages"],
          });
          expect(answer.status).toBe(expected);
          const body = json(answer.text);
          expect(body.ok).toBe(expected === 200);
          if (expected === 200) expect(answer.changed).toEqual(["contact_messages"]);
          else expect(body.message ?? body.error).toEqual(expect.any(String));
        }),
        runs(),
      );
    });

    it("POST /login refuses every wrong sign-in (400, 401, then 429 after 5 per address)", async () => {
      const loginEntries = fc
        .record(
          {
            password: fc.option(fc.oneof({ weight: 8, arbitrary: text }, huge), {
              nil: undefined,
              freq: 5,
            }),
            redirectTo: fc.option(text, { nil: undefined }),
            extra: fc.array(fc.tuple(naughty, text), { maxLength: 2 }),
          },
          { requiredKeys: ["extra"] },
        )
        .map(({ extra, ...fields }): Entries => [
          ...Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
          ...extra,
        ]);
      // Two addresses: each costs 5 scrypt checks (~0.5 s apiece) before its throttle answers.
      const address = fc.constantFrom(undefined, "192.0.2.10");
      await fc.assert(
        fc.asyncProperty(loginEntries, formEncoding, address, async (entries, as, from) => {
          const encoded = await encodeForm(entries, as);
          let expected: number;
          if (encoded.body.byteLength > FORM_LIMIT) expected = 413;
          else {
            const password = (await decodeForm(encoded)).get("password");
            if (typeof password !== "string" || password === "") expected = 400;
            else {
              const [row] = await site.sql<{ n: number }>(
                `select count(*)::int as n from sign_in_failures
                 where address = '${from ?? "unknown"}' and failed_at > now() - interval '1 hour'`,
              );
              expected = row!.n >= 5 ? 429 : 401;
            }
          }
          const { answer } = await form("POST /login (fuzzed)", "/login", entries, as, {
            address: from,
          });
          expect(answer.status).toBe(expected);
          if (expected === 429) expect(answer.headers.get("retry-after")).toBe("3600");
          expect(answer.headers.get("set-cookie")).toBeNull();
        }),
        runs(),
      );
    });

    const TRICKY_TARGETS = [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "/%2F/evil.example",
      // Browsers drop tabs and newlines from URLs: "/\t/x" is "//x", another host.
      "/\t/evil.example",
      "/\n/evil.example",
      // A Location header holds bytes, not any text.
      "/blog?q=€",
      "/a\r\nSet-Cookie: x=1",
    ];
    const redirectTarget = fc.oneof(
      { weight: 3, arbitrary: text.map((s) => `/${s}`) },
      { weight: 2, arbitrary: text },
      { weight: 1, arbitrary: fc.constantFrom(...TRICKY_TARGETS) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom("\t", "\n", "\r", " ", "\\", "/", "\u0000"), text)
          .map(([c, s]) => `/${c}/${s}`),
      },
    );
    /** Where a browser on this site goes: a Location it cannot even parse goes nowhere good. */
    const staysHere = (location: string | null) => {
      if (location === null || !URL.canParse(location, SITE_URL)) return false;
      return new URL(location, SITE_URL).origin === new URL(SITE_URL).origin;
    };

    it("GET /login?redirectTo=… signed in sends the owner only to this site", async () => {
      await fc.assert(
        fc.asyncProperty(redirectTarget, async (target) => {
          const answer = await site.probe("GET /login?redirectTo= (owner)", {
            path: `/login?redirectTo=${pct(target)}`,
            owner: true,
          });
          expect(answer.status).toBe(302);
          const location = answer.headers.get("location");
          expect(staysHere(location), `Location ${JSON.stringify(location)}`).toBe(true);
        }),
        runs(),
      );
    });

    it("POST /logout with anyone else's cookie signs nobody out", async () => {
      const cookie = fc.oneof(
        text.filter(headerSafe).map((s) => `session=${s}`),
        naughty.filter(headerSafe),
        fc.constant(`session=${"A".repeat(5000)}`),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.option(cookie, { nil: undefined }),
          contactEntries,
          async (fuzzedCookie, entries) => {
            const { answer } = await form("POST /logout", "/logout", entries, "urlencoded", {
              headers: fuzzedCookie === undefined ? {} : { cookie: fuzzedCookie },
            });
            expect(answer.status === 302 || answer.status === 413).toBe(true);
            if (answer.status === 302) expect(answer.headers.get("location")).toBe("/");
          },
        ),
        runs(),
      );
      const still = await site.probe("GET /admin/messages (owner)", {
        path: "/admin/messages",
        owner: true,
      });
      expect(still.status).toBe(200);
    });

    const junkCookie = text.filter(headerSafe).map((s) => `session=${s}`);

    it("POST /api/posts without the owner's session: 401, nothing stored", async () => {
      await fc.assert(
        fc.asyncProperty(
          postBody,
          fc.option(junkCookie, { nil: undefined }),
          async (body, cookie) => {
            const answer = await site.probe("POST /api/posts (no session)", {
              method: "POST",
              path: "/api/posts",
              headers: { "content-type": JSON_TYPE, ...(cookie ? { cookie } : {}) },
              body: utf8(body),
            });
            expect(answer.status).toBe(401);
          },
        ),
        runs(),
      );
    });

    it("POST /api/posts with the owner's session stores exactly the valid posts", async () => {
      await fc.assert(
        fc.asyncProperty(postBody, async (body) => {
          const answer = await postJson("POST /api/posts (owner)", "POST", "/api/posts", body);
          if (postMustBeRefused(body)) expect(answer.status).toBe(400);
          else expect([201, 400, 413]).toContain(answer.status);
          const reply = json(answer.text);
          if (answer.status !== 201) {
            expect(reply.error).toEqual(expect.any(String));
            return;
          }
          expect(answer.changed).toContain("blog_posts");
          const page = await site.probe("GET /blog/:slug (fuzzed post)", {
            path: `/blog/${String(reply.slug)}`,
          });
          expect(page.status).toBe(200);
          expect(
            runnableInjections(page.text, page.headers.get("content-security-policy")),
          ).toEqual([]);
        }),
        runs(),
      );
    });

    it("PUT, PATCH and DELETE /api/posts/:id: 401 without the owner, and only valid writes change anything", async () => {
      const method = fc.oneof(
        { weight: 4, arbitrary: fc.constant("PUT") },
        { weight: 1, arbitrary: fc.constant("PATCH") },
        { weight: 2, arbitrary: fc.constant("DELETE") },
      );
      await fc.assert(
        fc.asyncProperty(idText, method, postBody, fc.boolean(), async (id, verb, body, owner) => {
          const path = `/api/posts/${pct(id)}`;
          // "x.data" is React Router's single-fetch twin of /api/posts/x: its own answers.
          const plain = !/\.data$/.test(id);
          const exists = await postExists(id);
          const answer = await postJson(
            `${verb} /api/posts/:id (${owner ? "owner" : "no session"})`,
            verb,
            path,
            body,
            owner,
          );
          if (!plain) return;
          if (verb === "PATCH") expect(answer.status).toBe(405);
          else if (!owner) expect(answer.status).toBe(401);
          else if (verb === "DELETE") {
            expect(answer.status).toBe(exists ? 200 : 404);
            if (exists) expect(answer.changed).toContain("blog_posts");
          } else if (!isSerial(id)) expect(answer.status).toBe(404);
          // An update reads the body before it looks for the post.
          else if (postMustBeRefused(body)) expect(answer.status).toBe(400);
          else expect(exists ? [200, 400, 413] : [404, 400, 413]).toContain(answer.status);
        }),
        runs(),
      );
    });

    it("POST /api/messages/:id/retry: 401 without the owner, 404 for anything but a failed message", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(idText, fc.constant(String(failedMessage))),
          fc.boolean(),
          fc.option(contactEntries, { nil: undefined }),
          async (id, owner, entries) => {
            await site.sql(
              `update contact_messages set status = 'failed' where id = ${failedMessage}`,
            );
            const encoded = entries ? await encodeForm(entries, "urlencoded") : undefined;
            const answer = await site.probe(
              `POST /api/messages/:id/retry (${owner ? "owner" : "no session"})`,
              {
                method: "POST",
                path: `/api/messages/${pct(id)}/retry`,
                owner,
                headers: encoded ? { "content-type": encoded.type } : {},
                body: encoded?.body,
                mayChange: ["contact_messages"],
              },
            );
            if (/\.data$/.test(id)) return;
            if (encoded && encoded.body.byteLength > FORM_LIMIT) expect(answer.status).toBe(413);
            else if (!owner) expect(answer.status).toBe(401);
            else if (id === String(failedMessage)) {
              expect(answer.status).toBe(200);
              expect(answer.changed).toEqual(["contact_messages"]);
            } else expect(answer.status).toBe(404);
          },
        ),
        runs(),
      );
    });

    it("GET pages with fuzzed queries, route params and cookies answer without changing anything", async () => {
      const page = fc.oneof(idText, text);
      const search = fc.oneof({ weight: 5, arbitrary: text }, long(150, 6000));
      const malformed = fc.constantFrom(
        "%",
        "%f",
        "%ff",
        "%E0%A4%A",
        "%00",
        "%C0%AE%C0%AE",
        "%2e%2e%2f%2e%2e%2fpackage.json",
        "..%2f..%2f..%2fetc%2fpasswd",
        "%252e%252e%252f",
        "%u002e",
      );
      type Case = {
        label: string;
        path: string;
        owner?: boolean;
        statuses: number[];
        /** Where a 301 must point. */
        location?: string;
      };
      const cases: fc.Arbitrary<Case> = fc.oneof(
        fc.tuple(page, search).map(([p, q]) => ({
          label: "GET /blog?page=&q=",
          path: `/blog?page=${pct(p)}&q=${pct(q)}`,
          statuses: [200, 302, 404],
        })),
        fc.tuple(page, search).map(([p, q]) => ({
          label: "GET /blog.data?page=&q=",
          path: `/blog.data?page=${pct(p)}&q=${pct(q)}`,
          statuses: [200, 202, 204, 302, 404],
        })),
        idText.map((id) => {
          const path = `/blog/${routeParam(id)}`;
          // A dot segment makes it another page (`/blog/..` is `/`), or `/blog/` (301 to /blog).
          // An id or an old slug moves to the post's slug (301); a trashed post's are gone (410).
          const statuses = [200, 301, 404, 410];
          return { label: "GET /blog/:id", path, statuses };
        }),
        // A character React Router writes as it is and pct escapes: never the canonical spelling.
        fc
          .tuple(idText, fc.constantFrom("'", "(", ")", "!", "*", ":", "@", "$", ",", ";", "="))
          .map(([id, literal]) => id + literal)
          .filter((id) => {
            const path = `/blog/${pct(id)}`;
            return pct(id) !== routeParam(id) && sentPath(path) === path;
          })
          .map((id) => ({
            label: "GET /blog/:id spelled otherwise (301)",
            path: `/blog/${pct(id)}`,
            statuses: [301],
            location: `/blog/${routeParam(id)}`,
          })),
        idText.map((id) => ({
          label: "GET /blog/:id.data",
          path: `/blog/${pct(id)}.data`,
          statuses: [200, 202, 204, 404, 410],
        })),
        fc.tuple(idText, fc.boolean()).map(([id, owner]) => ({
          label: `GET /blog/:id/edit (${owner ? "owner" : "no session"})`,
          path: `/blog/${routeParam(id)}/edit`,
          owner,
          // A dot segment makes it another page (`/blog/../edit` is `/edit`, not found).
          statuses:
            sentPath(`/blog/${routeParam(id)}/edit`) !== `/blog/${routeParam(id)}/edit`
              ? [301, 404]
              : owner
                ? [200, 404]
                : [302],
        })),
        text.map((t) => ({
          label: "GET /login?redirectTo=",
          path: `/login?redirectTo=${pct(t)}`,
          statuses: [200],
        })),
        fc
          .tuple(malformed, fc.constantFrom("/blog/", "/blog/1/", "/", "/assets/", "/api/posts/"))
          .map(([m, prefix]) => ({
            label: "GET malformed or traversing paths",
            path: `${prefix}${m}`,
            // 301: the router reads it as a route, spelled otherwise than React Router would.
            statuses: [200, 301, 302, 400, 404, 405],
          })),
        text.map((t) => ({
          label: "GET /{anything}",
          path: `/${pct(t)}`,
          statuses: [200, 202, 204, 301, 302, 404, 405],
        })),
      );
      const extraHeaders = fc.record(
        {
          "x-request-id": naughty.filter(headerSafe),
          cookie: junkCookie,
          "accept-language": naughty.filter(headerSafe),
          "if-none-match": naughty.filter(headerSafe),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(cases, extraHeaders, async (c, headers) => {
          const answer = await site.probe(c.label, {
            path: c.path,
            owner: c.owner,
            headers: c.owner ? { ...headers, cookie: site.ownerCookie } : headers,
          });
          expect(c.statuses).toContain(answer.status);
          expect(answer.text).not.toMatch(/"devDependencies"|root:x:0:0|createSiteApp/);
          if (c.location !== undefined) expect(answer.headers.get("location")).toBe(c.location);
          if (c.label.startsWith("GET /blog/:id/edit (no") && answer.status === 302) {
            expect(answer.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
          }
        }),
        runs(2 * RUNS),
      );
      for (const path of ["/admin/messages", "/blog/new"]) {
        await fc.assert(
          fc.asyncProperty(junkCookie, async (cookie) => {
            const answer = await site.probe(`GET ${path} (junk session cookie)`, {
              path,
              headers: { cookie },
            });
            expect(answer.status).toBe(302);
          }),
          runs(RUNS / 4),
        );
      }
    });

    /** Every request that writes, with a body the endpoint would take. */
    type Endpoint = {
      label: string;
      method: string;
      path: string;
      limit: number;
      owner?: boolean;
      valid: () => { type: string; body: Bytes };
      mayChange: readonly Table[];
    };
    const contactForm = () => ({
      type: FORM,
      body: utf8("name=Ada&email=ada%40example.com&message=Hello"),
    });
    const validPostJson = JSON.stringify({ title: "Valid", content: "<p>Valid</p>" });
    const validPost = () => ({ type: JSON_TYPE, body: utf8(validPostJson) });
    const ENDPOINTS: Endpoint[] = [
      {
        label: "POST /?index",
        method: "POST",
        path: "/?index",
        limit: FORM_LIMIT,
        valid: contactForm,
        mayChange: ["contact_messages"],
      },
      {
        // Not the contact form (that posts to /?index): the root route, which takes nothing.
        label: "POST /",
        method: "POST",
        path: "/",
        limit: FORM_LIMIT,
        valid: contactForm,
        mayChange: [],
      },
      {
        label: "POST /_.data?index",
        method: "POST",
        path: "/_.data?index",
        limit: FORM_LIMIT,
        valid: contactForm,
        mayChange: ["contact_messages"],
      },
      {
        label: "POST /api/contact",
        method: "POST",
        path: "/api/contact",
        limit: FORM_LIMIT,
        valid: contactForm,
        mayChange: ["contact_messages"],
      },
      {
        label: "POST /login",
        method: "POST",
        path: "/login",
        limit: FORM_LIMIT,
        valid: () => ({ type: FORM, body: utf8(`password=${pct(OWNER_PASSWORD)}`) }),
        // A right password signs in, and remembers the browser (a device cookie).
        mayChange: ["sessions", "owner_devices"],
      },
      {
        label: "POST /login.data",
        method: "POST",
        path: "/login.data",
        limit: FORM_LIMIT,
        valid: () => ({ type: FORM, body: utf8(`password=${pct(OWNER_PASSWORD)}`) }),
        mayChange: ["sessions", "owner_devices"],
      },
      {
        label: "POST /logout",
        method: "POST",
        path: "/logout",
        limit: FORM_LIMIT,
        valid: () => ({ type: FORM, body: utf8("x=1") }),
        mayChange: ["sessions"],
      },
      {
        label: "POST /api/posts",
        method: "POST",
        path: "/api/posts",
        limit: POST_LIMIT,
        owner: true,
        valid: validPost,
        mayChange: ["blog_posts", "blog_stats"],
      },
      {
        label: "PUT /api/posts/1",
        method: "PUT",
        path: "/api/posts/1",
        limit: POST_LIMIT,
        owner: true,
        valid: validPost,
        mayChange: ["blog_posts", "blog_stats"],
      },
      {
        // Not an id: the HTTP layer decides before the route looks (a 404 DELETE of a real
        // id is tried below, and the cross-site test deletes a real post).
        label: "DELETE /api/posts/not-an-id",
        method: "DELETE",
        path: "/api/posts/not-an-id",
        limit: POST_LIMIT,
        owner: true,
        valid: validPost,
        mayChange: ["blog_posts", "blog_stats"],
      },
      {
        label: "POST /api/messages/:id/retry",
        method: "POST",
        path: "/api/messages/1/retry",
        limit: FORM_LIMIT,
        owner: true,
        valid: contactForm,
        mayChange: ["contact_messages"],
      },
    ];
    // The owner's own logout would end the session the other cases sign with.
    const keepsSession = ENDPOINTS.filter((e) => e.path !== "/logout");
    const send = (e: Endpoint, label: string, request: Omit<Probe, "method" | "path">) =>
      site.probe(`${e.label} (${label})`, {
        method: e.method,
        path: e.path,
        owner: e.owner,
        mayChange: e.mayChange,
        address: "192.0.2.99",
        ...request,
      });

    it("bodies of another content type get 415 before any route reads them", async () => {
      const body = fc.oneof(
        text.filter((s) => s !== "").map(utf8),
        withInvalidUtf8("title=", "&x=1"),
        fc.constant(utf8(deepArray(10_000))),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...keepsSession),
          fc.option(contentType, { nil: undefined, freq: 10 }),
          body,
          async (e, type, bytes) => {
            const answer = await send(e, "any content type", {
              headers: type === undefined ? {} : { "content-type": type },
              body: bytes,
            });
            if (type === undefined || !acceptedType(type)) {
              expect(answer.status).toBe(415);
              expect(String(json(answer.text).error)).toMatch(/^Unsupported content type/);
            }
          },
        ),
        runs(),
      );
    });

    it("POST / without ?index is the root route's: 405, nothing stored", async () => {
      const root = ENDPOINTS.find((e) => e.path === "/")!;
      await fc.assert(
        fc.asyncProperty(contactEntries, formEncoding, async (entries, as) => {
          const encoded = await encodeForm(entries, as);
          const answer = await send(root, "any form", {
            headers: { "content-type": encoded.type },
            body: encoded.body,
          });
          expect(answer.status).toBe(encoded.body.byteLength > FORM_LIMIT ? 413 : 405);
        }),
        runs(RUNS / 4),
      );
    });

    it("bodies over the limit get 413, declared or chunked, and a body at the limit does not", async () => {
      for (const e of ENDPOINTS) {
        const valid = e.valid();
        const over = new Uint8Array(e.limit + 1).fill(0x61);
        over.set(valid.body);
        const headers = { "content-type": valid.type };
        expect((await send(e, "over the limit", { headers, body: over })).status).toBe(413);
        expect(
          (await send(e, "over the limit, chunked", { headers, body: over, chunked: true })).status,
        ).toBe(413);
        const at = over.subarray(0, e.limit);
        expect((await send(e, "at the limit", { headers, body: at })).status).not.toBe(413);
      }
      const eightMegabytes = new Uint8Array(8 * 1024 * 1024).fill(0x61);
      const answer = await send(ENDPOINTS[2]!, "8 MB, chunked", {
        headers: { "content-type": FORM },
        body: eightMegabytes,
        chunked: true,
      });
      expect(answer.status).toBe(413);
    });

    it("malformed JSON, wrong JSON types and JSON nested 10,000 deep get 400 from the post API", async () => {
      const notJson = (s: string) => {
        try {
          JSON.parse(s);
          return false;
        } catch {
          return true;
        }
      };
      const malformed = fc
        .oneof(
          text,
          postBody.map((b) => b.slice(0, -1)),
          fc.constantFrom("{'title':'x'}", "{title:1}", "NaN", "[", "{", '{"title":"x",}', ""),
        )
        .filter(notJson);
      const wrong = fc.oneof(
        fc.constantFrom(
          "[]",
          "0",
          "-1e400",
          "null",
          "true",
          '"title"',
          "{}",
          deepArray(10_000),
          deepObject(10_000),
          `{"title":${deepArray(10_000)},"content":"<p>x</p>"}`,
          jsonObject([
            ["__proto__", { title: "x", content: "<p>x</p>" }],
            ["constructor", { prototype: { title: "x" } }],
          ]),
        ),
        fc
          .tuple(fc.jsonValue(), fc.jsonValue())
          .filter(([title]) => typeof title !== "string")
          .map(([title, content]) => JSON.stringify({ title, content: content ?? "<p>x</p>" })),
      );
      // A post of its own to update (the fuzzing above deletes posts by id).
      const created = await postJson(
        "POST /api/posts (setup)",
        "POST",
        "/api/posts",
        validPostJson,
      );
      expect(created.status).toBe(201);
      const target = fc.constantFrom(
        { method: "POST", path: "/api/posts" },
        { method: "PUT", path: `/api/posts/${String(json(created.text).id)}` },
      );
      await fc.assert(
        fc.asyncProperty(fc.oneof(malformed, wrong), target, async (body, { method, path }) => {
          const answer = await postJson(
            `${method} ${path} (malformed or wrong JSON)`,
            method,
            path,
            body,
          );
          expect(answer.status).toBe(400);
          expect(json(answer.text).error).toEqual(expect.any(String));
        }),
        runs(),
      );
    });

    it("forms that cannot be read (JSON, broken multipart, deep nesting) get 400 with a message", async () => {
      const broken = fc.oneof(
        fc.constantFrom(
          { type: JSON_TYPE, body: '{"name":"Ada","email":"ada@example.com","message":"Hi"}' },
          { type: JSON_TYPE, body: deepArray(10_000) },
          { type: JSON_TYPE, body: deepObject(10_000) },
          { type: "multipart/form-data", body: "--x\r\n\r\n--x--" },
          { type: "multipart/form-data; boundary=x", body: "garbage" },
          {
            type: "multipart/form-data; boundary=x",
            body: '--y\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--y--\r\n',
          },
          {
            type: "multipart/form-data; boundary=x",
            body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda',
          },
          { type: "multipart/form-data; boundary=x", body: "--x\r\nno headers\r\n--x--\r\n" },
        ),
        text
          .filter((s) => s !== "")
          .map((s) => ({ type: "multipart/form-data; boundary=----fuzz", body: s })),
      );
      const formEndpoints = ENDPOINTS.filter((e) =>
        ["/?index", "/api/contact", "/login"].includes(e.path),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...formEndpoints), broken, async (e, { type, body }) => {
          const answer = await send(e, "unreadable form", {
            headers: { "content-type": type },
            body: utf8(body),
          });
          expect(answer.status).toBe(400);
          expect(answer.text).toMatch(/could not be read/);
        }),
        runs(RUNS / 2),
      );
    });

    it("bodies that are not UTF-8 are read or refused, never a server error", async () => {
      const cases = fc.oneof(
        fc.tuple(
          fc.constantFrom(...ENDPOINTS.filter((e) => e.limit === FORM_LIMIT)),
          fc.oneof(
            withInvalidUtf8("name=", "&email=ada%40example.com&message=Hi"),
            withInvalidUtf8("name=Ada&email=ada%40example.com&message=", ""),
            withInvalidUtf8("password=", ""),
          ),
          fc.constant(FORM),
        ),
        fc.tuple(
          fc.constantFrom(
            ...ENDPOINTS.filter((e) => e.limit === POST_LIMIT && e.method !== "DELETE"),
          ),
          fc.oneof(
            withInvalidUtf8('{"title":"', '","content":"<p>x</p>"}'),
            withInvalidUtf8('{"title":"x","content":"<p>', '</p>"}'),
            withInvalidUtf8("", ""),
          ),
          fc.constant(JSON_TYPE),
        ),
        fc.tuple(
          fc.constantFrom(...ENDPOINTS.filter((e) => e.path === "/api/contact")),
          withInvalidUtf8(
            '--x\r\nContent-Disposition: form-data; name="message"\r\n\r\n',
            '\r\n--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nada@example.com\r\n--x--\r\n',
          ),
          fc.constant("multipart/form-data; boundary=x"),
        ),
      );
      await fc.assert(
        fc.asyncProperty(cases, async ([e, body, type]) => {
          await send(e, "invalid UTF-8", { headers: { "content-type": type }, body });
        }),
        runs(),
      );
    });

    it("cross-site requests get 403 and change nothing, even signed in with a valid body", async () => {
      const crossSite: Record<string, string>[] = [
        { origin: "https://evil.example" },
        { origin: "null" },
        { origin: "http://localhost:3000.evil.example" },
        { origin: "http://localhost:3001" },
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "same-site" },
        { origin: SITE_URL, "sec-fetch-site": "cross-site" },
      ];
      for (const e of ENDPOINTS) {
        for (const headers of crossSite) {
          const valid = e.valid();
          const answer = await send(e, "cross-site", {
            headers: { ...headers, "content-type": valid.type },
            body: valid.body,
            owner: true,
          });
          expect(answer.status, `${e.label} with ${JSON.stringify(headers)}`).toBe(403);
        }
      }
      // A real post, signed in: a forged DELETE must leave it.
      const created = await postJson(
        "POST /api/posts (setup)",
        "POST",
        "/api/posts",
        validPostJson,
      );
      const realPost = `/api/posts/${String(json(created.text).id)}`;
      for (const headers of crossSite) {
        const answer = await site.probe("DELETE /api/posts/:id (cross-site)", {
          method: "DELETE",
          path: realPost,
          owner: true,
          headers,
        });
        expect(answer.status, `DELETE with ${JSON.stringify(headers)}`).toBe(403);
      }
      // The positive control: from this site itself the same message is taken.
      const contact = ENDPOINTS.find((e) => e.path === "/api/contact")!;
      const same = await send(contact, "same origin", {
        headers: { origin: SITE_URL, "sec-fetch-site": "same-origin", "content-type": FORM },
        body: contactForm().body,
      });
      expect(same.status).toBe(200);
      expect(same.changed).toEqual(["contact_messages"]);
    });

    it("every naughty string as a contact message, a post title, a search and a post id", async () => {
      for (const s of NAUGHTY) {
        const entries: Entries = [
          ["name", "Naughty"],
          ["email", "naughty@example.com"],
          ["message", s],
        ];
        const encoded = await encodeForm(entries, "urlencoded");
        const { answer: contact } = await form(
          "POST /api/contact (each naughty string)",
          "/api/contact",
          entries,
          "urlencoded",
          { mayChange: ["contact_messages"] },
        );
        expect(contact.status).toBe(contactIsValid(await decodeForm(encoded)) ? 200 : 400);

        const body = JSON.stringify({ title: s, description: s, content: `<p>${s}</p>` });
        const post = await postJson(
          "POST /api/posts (each naughty string)",
          "POST",
          "/api/posts",
          body,
        );
        if (postMustBeRefused(body)) expect(post.status).toBe(400);
        else expect([201, 400]).toContain(post.status);
        if (post.status === 201) {
          const page = await site.probe("GET /blog/:slug (each naughty post)", {
            path: `/blog/${String(json(post.text).slug)}`,
          });
          expect(page.status).toBe(200);
          expect(
            runnableInjections(page.text, page.headers.get("content-security-policy")),
          ).toEqual([]);
        }

        const list = await site.probe("GET /blog?q= (each naughty string)", {
          path: `/blog?q=${pct(s)}`,
        });
        expect(list.status).toBe(200);

        if (s !== "" && s !== "." && s !== "..") {
          const byId = await site.probe("GET /blog/:id (each naughty string)", {
            path: `/blog/${routeParam(s)}`,
          });
          expect(byId.status).toBe(await postPageStatus(s));
        }
      }
    });

    /** Runs each probe, collecting what fails, so one test reports every case at once. */
    const everyCase = async (cases: (() => Promise<unknown>)[]) => {
      const failures: string[] = [];
      for (const run of cases) {
        try {
          await run();
        } catch (error) {
          failures.push(String(error instanceof Error ? error.message : error).split("\n")[0]!);
        }
      }
      expect(failures.join("\n")).toBe("");
    };

    // The cases below are what the fuzzing above found, each pinned down so that it fails
    // every run until fixed (the properties find them again only by chance).

    it("the owner's redirect after signing in stays on this site and never fails", async () => {
      // Fails today: safeRedirect (app/features/owner/session.server.ts) lets "/\t/evil.example" and
      // "/\n/evil.example" through, which browsers read as //evil.example (an open redirect:
      // they drop tabs and newlines from URLs); a target holding CR, LF or a character above
      // U+00FF makes redirect() throw in Headers.set, a 500 (GET /login signed in, and POST
      // /login after the session row is written). Left failing.
      const viaPage = TRICKY_TARGETS.map((target) => async () => {
        const answer = await site.probe("GET /login?redirectTo= (owner, pinned)", {
          path: `/login?redirectTo=${pct(target)}`,
          owner: true,
        });
        const location = answer.headers.get("location");
        if (!staysHere(location))
          throw new Error(`GET redirectTo ${JSON.stringify(target)} → ${JSON.stringify(location)}`);
      });
      // A sign-in costs a scrypt check (~0.5 s): a few targets stand for the rest.
      const viaSignIn = ["/blog?page=2", "/\t/evil.example", "/a\nb", "/€"].map(
        (target, i) => async () => {
          const { answer } = await form(
            "POST /login (right password, pinned)",
            "/login",
            [
              ["password", OWNER_PASSWORD],
              ["redirectTo", target],
            ],
            "urlencoded",
            { address: `198.51.100.${i + 1}`, mayChange: ["sessions", "owner_devices"] },
          );
          const location = answer.headers.get("location");
          if (answer.status !== 302 || !staysHere(location))
            throw new Error(
              `POST redirectTo ${JSON.stringify(target)} → ${JSON.stringify(location)}`,
            );
        },
      );
      await everyCase([...viaPage, ...viaSignIn]);
    });

    it("U+0000 in a valid contact message is stored or refused, never a 500", async () => {
      // Fails today: 500 on both forms; the insert in app/features/contact/outbox.server.ts fails
      // (PostgreSQL text cannot hold U+0000), on PGlite and PostgreSQL alike. Left failing.
      const entries: Entries = [
        ["name", "Ada"],
        ["email", "ada@example.com"],
        ["message", "a\u0000b"],
      ];
      await everyCase(
        ["/?index", "/api/contact"].flatMap((path) =>
          (["urlencoded", "multipart"] as const).map((as) => async () => {
            const { answer } = await form(`POST ${path} (U+0000, pinned)`, path, entries, as, {
              mayChange: ["contact_messages"],
            });
            expect([200, 400]).toContain(answer.status);
          }),
        ),
      );
    });

    it("U+0000 in a post is stored or refused, never a 500", async () => {
      // Fails today: 500 for the title, description or content, on create and update; the
      // insert and update in app/features/posts/write.server.ts fail. Left failing.
      const created = await postJson(
        "POST /api/posts (setup)",
        "POST",
        "/api/posts",
        validPostJson,
      );
      const path = `/api/posts/${String(json(created.text).id)}`;
      const bodies = [
        { title: "a\u0000b", content: "<p>x</p>" },
        { title: "Ada", description: "a\u0000b", content: "<p>x</p>" },
        { title: "Ada", content: "<p>a\u0000b</p>" },
      ].map((b) => JSON.stringify(b));
      await everyCase(
        bodies.flatMap((body) => [
          async () => {
            const answer = await postJson(
              "POST /api/posts (U+0000, pinned)",
              "POST",
              "/api/posts",
              body,
            );
            expect([201, 400]).toContain(answer.status);
          },
          async () => {
            const answer = await postJson("PUT /api/posts/:id (U+0000, pinned)", "PUT", path, body);
            expect([200, 400]).toContain(answer.status);
          },
        ]),
      );
    });

    it("U+0000 in a blog search answers the page, never a 500", async () => {
      // Fails today: app/routes/blog.tsx turns the failed query into a 500 page. Left failing.
      await everyCase(
        ["/blog?q=%00", "/blog?q=a%00b&page=1", "/blog.data?q=%00"].map((path) => async () => {
          const answer = await site.probe("GET /blog?q= (U+0000, pinned)", { path });
          expect(answer.status).toBe(200);
        }),
      );
    });

    it("the owner's DELETE of a post that does not exist answers 404 and writes nothing", async () => {
      // DELETE moves a post to the trash, an UPDATE: of no row, it leaves blog_stats alone too
      // (blog_stats_after_update, migration 0007, counts only rows that changed).
      await everyCase(
        ["2000000000", "2147483647"].map((id) => async () => {
          const answer = await postJson(
            "DELETE /api/posts/:id (none, pinned)",
            "DELETE",
            `/api/posts/${id}`,
            "",
          );
          expect(answer.status).toBe(404);
        }),
      );
    });

    it("every XSS vector as post content renders nothing runnable", async () => {
      for (const payload of XSS) {
        const body = JSON.stringify({ title: "XSS", content: payload });
        const post = await postJson(
          "POST /api/posts (each XSS vector)",
          "POST",
          "/api/posts",
          body,
        );
        expect([201, 400]).toContain(post.status);
        if (post.status !== 201) continue;
        const page = await site.probe("GET /blog/:slug (each XSS vector)", {
          path: `/blog/${String(json(post.text).slug)}`,
        });
        expect(page.status).toBe(200);
        expect(
          runnableInjections(page.text, page.headers.get("content-security-policy")),
          payload,
        ).toEqual([]);
      }
    });
  });
}

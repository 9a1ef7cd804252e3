import { readFileSync } from "node:fs";
import path from "node:path";

import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { signInRequest } from "./owner";

/** DOMPurify's attack inputs, kept in the repository (tests/fixtures/README.md): inputs only. */
const vectorsFile = path.resolve(import.meta.dirname, "../fixtures/xss/dompurify-vectors.json");
const vectors = JSON.parse(readFileSync(vectorsFile, "utf8")) as {
  title?: string;
  payload: string;
}[];
/** About half the corpus has no title: name those by their payload. */
const label = (i: number) =>
  vectors[i]!.title ?? `vector ${i + 1}: ${vectors[i]!.payload.slice(0, 60)}`;

/** The "Script Injection" section of big-list-of-naughty-strings (blns.txt). */
function scriptInjectionStrings(): string[] {
  const text = readFileSync(
    path.resolve(import.meta.dirname, "../../node_modules/big-list-of-naughty-strings/blns.txt"),
    "utf8",
  );
  const lines = text.split("\n");
  const start = lines.findIndex((line) => /^#\s*Script Injection\s*$/.test(line));
  const end = lines.findIndex((line, i) => i > start + 3 && /^#\t[A-Z]/.test(line));
  return lines.slice(start + 1, end).filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

/** Every attack string of both corpora, each as a post's content. */
const corpus = [
  ...vectors.map((v, i) => ({ label: label(i), payload: v.payload })),
  ...scriptInjectionStrings().map((payload, i) => ({
    label: `blns ${i + 1}: ${payload.slice(0, 60)}`,
    payload,
  })),
];

/** Before any page script: dialogs and printing become counters instead of running. */
function countDialogs() {
  const w = window as unknown as Record<string, unknown> & { __xssCalls: number };
  w.__xssCalls = 0;
  for (const name of ["alert", "confirm", "prompt", "print"]) {
    w[name] = () => {
      w.__xssCalls++;
    };
  }
}

/** What ran or could run inside the post body: dialog calls, dangerous elements, handlers, URLs. */
async function findings(page: Page): Promise<string[]> {
  // Let error handlers of failed resource loads (img onerror and the like) fire.
  await page.waitForTimeout(50);
  return page.evaluate(() => {
    const found: string[] = [];
    const calls = (window as unknown as { __xssCalls: number }).__xssCalls;
    if (calls > 0) found.push(`${calls} dialog call(s)`);
    const body = document.querySelector('[data-testid="post-content"]');
    if (!body) return ["no post body"];
    // Payloads clobber DOM properties (a form with an input named "attributes"): read through
    // the prototypes, never the elements' own properties.
    const localName = Object.getOwnPropertyDescriptor(Element.prototype, "localName")!.get!;
    for (const el of Element.prototype.querySelectorAll.call(body, "*")) {
      const tag = localName.call(el) as string;
      if (["script", "iframe", "object", "embed"].includes(tag)) found.push(`<${tag}>`);
      for (const raw of Element.prototype.getAttributeNames.call(el)) {
        const name = raw.toLowerCase();
        if (name.startsWith("on")) found.push(`${tag}[${name}]`);
        if (["href", "src", "action", "formaction", "xlink:href", "srcset"].includes(name)) {
          const value = (Element.prototype.getAttribute.call(el, raw) ?? "")
            .replace(/[\s\p{Cc}]/gu, "")
            .toLowerCase();
          if (/^(javascript|vbscript):|^data:text\/html/.test(value)) {
            found.push(`${tag}[${name}=${value.slice(0, 30)}]`);
          }
        }
      }
    }
    return found;
  });
}

// The reader's test opens a page for each of 223 vectors in one test: 4 minutes were not enough
// on a machine about 1.5 times slower than the one it was written on. A cap on a hang, not a
// measure of speed.
test.describe.configure({ mode: "serial", timeout: 480_000 });

test.describe("positive control", () => {
  // Raw payloads load broken resources on purpose; their console noise is expected here only.
  test.use({ allowConsoleErrors: /.*/ });
  test(`the harness catches the raw payloads (${corpus.length} strings)`, async ({ page }) => {
    await page.addInitScript(countDialogs);
    let caught = 0;
    for (const { payload } of corpus) {
      await page.goto("about:blank");
      await page.setContent(
        `<!doctype html><body><div data-testid="post-content">${payload}</div></body>`,
      );
      if ((await findings(page)).length > 0) caught++;
    }
    console.log(`positive control: the harness flags ${caught} of ${corpus.length} raw payloads`);
    // Most strings are live when unsanitized; if the harness saw few, its checks are broken.
    expect(caught).toBeGreaterThan(corpus.length / 3);
  });
});

test(`no stored vector runs a script in the reader (${vectors.length} vectors)`, async ({
  page,
  request,
}) => {
  const response = await request.post("/__test/posts", {
    data: {
      reset: true,
      posts: vectors.map((v, i) => ({
        title: `Vector ${i + 1}`,
        content: v.payload,
        contentEn: v.payload,
      })),
    },
  });
  expect(response.status()).toBe(200);
  const { ids } = (await response.json()) as { ids: number[] };
  expect(ids).toHaveLength(vectors.length);

  await page.addInitScript(countDialogs);
  const failures: string[] = [];
  for (const [index, id] of ids.entries()) {
    await page.goto(`/blog/${id}`);
    const found = await findings(page);
    // The English body goes through the same path: check it too.
    const toggle = page.getByRole("switch", { name: "Read in English" });
    if ((await toggle.count()) === 1) {
      await toggle.click();
      found.push(...(await findings(page)));
    } else if (vectors[index]!.payload.trim() !== "") {
      // Only a blank English version has no switch.
      found.push("no English switch on the page");
    }
    if (found.length > 0) failures.push(`${label(index)}: ${found.join(", ")}`);
  }
  expect(failures).toEqual([]);
});

test(`no string saved through the editor's write path runs a script (${corpus.length} strings)`, async ({
  page,
  request,
}) => {
  await signInRequest(request);
  await request.post("/__test/posts", { data: { reset: true, posts: [] } });
  const saved: { id: number; label: string }[] = [];
  let refused = 0;
  for (const [index, { label: name, payload }] of corpus.entries()) {
    const response = await request.post("/api/posts", {
      data: { title: `Saved ${index + 1}`, description: payload.slice(0, 1000), content: payload },
    });
    if (response.status() === 201) saved.push({ id: (await response.json()).id, label: name });
    else if (response.status() === 400)
      refused++; // nothing left once sanitized: "Content is required."
    else throw new Error(`${name}: the write path answered ${response.status()}`);
  }
  console.log(`write path: ${saved.length} saved, ${refused} refused as empty once sanitized`);
  expect(saved.length).toBeGreaterThan(corpus.length / 2);

  await page.addInitScript(countDialogs);
  const failures: string[] = [];
  for (const { id, label: name } of saved) {
    await page.goto(`/blog/${id}`);
    const found = await findings(page);
    if (found.length > 0) failures.push(`${name}: ${found.join(", ")}`);
  }
  expect(failures).toEqual([]);
});

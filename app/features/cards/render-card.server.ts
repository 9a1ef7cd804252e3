/**
 * Drawing a share card (a 1200×630 PNG for Open Graph and Twitter) from what it shows, with
 * satori (layout to SVG), resvg (SVG to PNG) and sharp (a palette, to make it small), in a child
 * process started per batch: both are CPU work of tens to hundreds of milliseconds a card, which
 * would hold every request meanwhile (docs/decisions/035-share-cards.md), and the memory they
 * take (satori's WebAssembly, resvg's own allocator, libvips) is not given back to a process
 * that goes on running, while a process that ends returns all of it (decision 049).
 *
 * The child runs `drawInChild`'s own source, which needs nothing but Node and the packages it
 * is handed the paths of, so the same code runs in the built server and in development (as
 * app/features/profile/resume-check.server.ts does in a thread).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { SHARP_THREADS } from "~/lib/sharp.server";

import { CARD_LIMITS, CARD_SIZE } from "./card";

/** What one card shows. */
export type CardSpec = {
  /** The big line: a post's title, or the owner's name on the home page's card. */
  heading: string;
  /** The line under it: the post's date, or the owner's title. */
  detail: string;
  /** The site's name, at the foot. */
  site: string;
  /** The owner's photo (JPEG bytes), or null for none. */
  photo: Uint8Array | null;
};

type Fonts = { regular: Uint8Array[]; bold: Uint8Array[] };
type ChildData = {
  satoriPath: string;
  resvgPath: string;
  sharpPath: string;
  sharpThreads: number;
  fonts: Fonts;
  cards: CardSpec[];
  size: typeof CARD_SIZE;
  limits: typeof CARD_LIMITS;
};
type ChildAnswer = { ok: true; pngs: Uint8Array[] } | { ok: false; error: string };

/**
 * Runs in the child, from its source text, on the one message the server sends it: everything
 * it uses comes through `load` (the child's `require`), so that it refers to nothing of this
 * module once bundled. It answers with one message, then ends.
 */
function drawInChild(
  load: (id: string) => unknown,
  data: ChildData,
  compress: (png: Uint8Array) => Promise<Uint8Array>,
): Promise<Uint8Array[]> {
  const { satoriPath, resvgPath, fonts, cards, size, limits } = data;
  const satori = (load(satoriPath) as { default: (el: unknown, o: unknown) => Promise<string> })
    .default;
  const { Resvg } = load(resvgPath) as {
    Resvg: new (svg: string, o: unknown) => { render(): { asPng(): Uint8Array } };
  };
  // One family per subset, named in order: a glyph missing from the first is looked for in the next.
  const families = fonts.regular.map((_, i) => `Card${i}`);
  const fontList = [
    ...fonts.regular.map((data, i) => ({ name: families[i], data, weight: 400, style: "normal" })),
    ...fonts.bold.map((data, i) => ({ name: families[i], data, weight: 700, style: "normal" })),
  ];
  const el = (type: string, style: Record<string, unknown>, children?: unknown, more = {}) => ({
    type,
    props: { style, children, ...more },
  });
  /** The heading cut at a word near the limit, so at most `headingLines` lines are drawn. */
  const cut = (heading: string) => {
    // No font here draws emoji: they go, rather than showing as empty boxes.
    const text = heading
      .replace(/\p{Extended_Pictographic}|\u200d|\ufe0f/gu, "")
      .replace(/\s+/g, " ");
    const chars = [...text.trim()];
    if (chars.length <= limits.headingChars) return text.trim();
    const head = chars.slice(0, limits.headingChars).join("");
    const space = head.lastIndexOf(" ");
    return `${(space > head.length / 2 ? head.slice(0, space) : head).trimEnd()}…`;
  };
  const layout = (card: CardSpec) =>
    el(
      "div",
      {
        width: size.width,
        height: size.height,
        display: "flex",
        flexDirection: "column",
        padding: "72px 80px",
        backgroundColor: "#0f172a",
        color: "#f8fafc",
        fontFamily: families.join(", "),
      },
      [
        el("div", { display: "flex", alignItems: "center", gap: 56 }, [
          el(
            "div",
            { display: "flex", flexDirection: "column", width: card.photo ? 744 : 1040, gap: 24 },
            [
              el(
                "div",
                {
                  fontSize: 64,
                  fontWeight: 700,
                  lineHeight: 1.15,
                  lineClamp: limits.headingLines,
                  display: "block",
                },
                cut(card.heading),
              ),
              el("div", { fontSize: 32, color: "#cbd5e1" }, card.detail),
            ],
          ),
          ...(card.photo
            ? [
                el(
                  "img",
                  { width: 240, height: 240, borderRadius: 120, objectFit: "cover" },
                  undefined,
                  {
                    src: `data:image/jpeg;base64,${Buffer.from(card.photo).toString("base64")}`,
                    width: 240,
                    height: 240,
                  },
                ),
              ]
            : []),
        ]),
        el(
          "div",
          {
            position: "absolute",
            left: 80,
            bottom: 64,
            display: "flex",
            alignItems: "center",
            gap: 20,
            fontSize: 30,
          },
          [
            el("div", { width: 48, height: 8, backgroundColor: "#38bdf8", borderRadius: 4 }),
            el("div", { color: "#e2e8f0" }, card.site),
          ],
        ),
      ],
    );
  return (async () => {
    const pngs: Uint8Array[] = [];
    for (const card of cards) {
      const svg = await satori(layout(card), {
        width: size.width,
        height: size.height,
        fonts: fontList,
        // Scripts no font here has (CJK, emoji): left out rather than fetched.
        loadAdditionalAsset: async () => [],
      });
      pngs.push(await compress(new Resvg(svg, { fitTo: { mode: "original" } }).render().asPng()));
    }
    return pngs;
  })();
}

/**
 * resvg's PNG made small, in the child too: a palette of at most 256 colours (flat areas and
 * text lose nothing; a photo is dithered), fewer when that is still over the limit.
 */
function paletteInChild(load: (id: string) => unknown, data: ChildData) {
  type Sharp = ((input: Uint8Array) => {
    png(o: unknown): { toBuffer(): Promise<Uint8Array> };
  }) & { concurrency(n: number): void; cache(on: boolean): void };
  const sharp = load(data.sharpPath) as Sharp;
  sharp.concurrency(data.sharpThreads);
  sharp.cache(false);
  return async (png: Uint8Array) => {
    let out = png;
    for (const colours of data.limits.paletteColours) {
      out = await sharp(png)
        .png({ palette: true, colours, compressionLevel: 9, effort: 7 })
        .toBuffer();
      if (out.byteLength <= data.limits.maxBytes) break;
    }
    return out;
  };
}

/** The child's program: wait for the cards, draw them, answer, end. */
const CHILD_SOURCE = `"use strict";
const draw = ${drawInChild.toString()};
const palette = ${paletteInChild.toString()};
process.once("message", (data) => {
  Promise.resolve()
    .then(() => draw(require, data, palette(require, data)))
    .then((pngs) => ({ ok: true, pngs }), (error) => ({ ok: false, error: String(error) }))
    .then((answer) => process.send(answer, () => process.exit(0)));
});`;

let resolved:
  { satoriPath: string; resvgPath: string; sharpPath: string; fonts: Fonts } | undefined;

/** The packages' files, resolved from here (the server build leaves them in node_modules). */
function packages() {
  if (resolved) return resolved;
  const require = createRequire(import.meta.url);
  const fontDir = path.join(
    path.dirname(require.resolve("@fontsource/noto-sans/package.json")),
    "files",
  );
  const font = (subset: string, weight: number) =>
    readFileSync(path.join(fontDir, `noto-sans-${subset}-${weight}-normal.woff`));
  const subsets = ["latin", "latin-ext", "cyrillic", "greek", "vietnamese"];
  resolved = {
    satoriPath: require.resolve("satori"),
    resvgPath: require.resolve("@resvg/resvg-js"),
    sharpPath: require.resolve("sharp"),
    fonts: {
      regular: subsets.map((s) => font(s, 400)),
      bold: subsets.map((s) => font(s, 700)),
    },
  };
  return resolved;
}

/**
 * Draws `cards` in a child process, in order: their PNGs, each under CARD_LIMITS.maxBytes, or
 * an error (the child failed, or took longer than CARD_LIMITS.batchMs).
 */
export function drawCards(cards: CardSpec[]): Promise<Uint8Array[]> {
  const data: ChildData = {
    ...packages(),
    sharpThreads: SHARP_THREADS,
    cards,
    size: CARD_SIZE,
    limits: CARD_LIMITS,
  };
  return new Promise((resolve, reject) => {
    // The same Node, without the server's flags (--liftoff-only is for PGlite's WebAssembly);
    // the environment, and so glibc's settings (decision 041), are the server's.
    const child = spawn(process.execPath, ["-e", CHILD_SOURCE], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      // Structured clone: the fonts, photos and PNGs go as bytes, not as JSON arrays.
      serialization: "advanced",
    });
    let done = false;
    const finish = (answer: ChildAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill("SIGKILL");
      if (answer.ok) resolve(answer.pngs.map((png) => new Uint8Array(png)));
      else reject(new Error(`The share cards were not drawn: ${answer.error}`));
    };
    const timer = setTimeout(() => finish({ ok: false, error: "too slow" }), CARD_LIMITS.batchMs);
    child.once("message", (answer: ChildAnswer) => finish(answer));
    child.once("error", (error) => finish({ ok: false, error: String(error) }));
    // "close", not "exit": by then every message the child sent has been read.
    child.once("close", (code, signal) =>
      finish({ ok: false, error: `the process ended (${signal ?? `code ${code}`})` }),
    );
    child.send(data);
  });
}

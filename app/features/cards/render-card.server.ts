/**
 * Drawing a share card (a 1200×630 PNG for Open Graph and Twitter) from what it shows, with
 * satori (layout to SVG) and resvg (SVG to PNG), in a worker thread: both are CPU work of tens
 * to hundreds of milliseconds a card, which would hold every request meanwhile
 * (docs/decisions/035-share-cards.md). One thread draws a batch of cards, then ends.
 *
 * The thread runs `drawInWorker`'s own source, which needs nothing but Node and the packages it
 * is handed the paths of, so the same code runs in the built server and in development (as
 * app/features/profile/resume-check.server.ts does).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

import { loadSharp } from "~/lib/sharp.server";

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
type WorkerData = {
  satoriPath: string;
  resvgPath: string;
  fonts: Fonts;
  cards: CardSpec[];
  size: typeof CARD_SIZE;
  limits: typeof CARD_LIMITS;
};
type WorkerAnswer = { ok: true; pngs: Uint8Array[] } | { ok: false; error: string };

/**
 * Runs in the thread, from its source text: everything it uses comes through `load` (the
 * thread's `require`), so that it refers to nothing of this module once bundled.
 */
function drawInWorker(load: (id: string) => unknown) {
  const { parentPort, workerData } = load("node:worker_threads") as {
    parentPort: { postMessage(answer: WorkerAnswer): void };
    workerData: WorkerData;
  };
  const { satoriPath, resvgPath, fonts, cards, size, limits } = workerData as WorkerData;
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
  void (async () => {
    const pngs: Uint8Array[] = [];
    for (const card of cards) {
      const svg = await satori(layout(card), {
        width: size.width,
        height: size.height,
        fonts: fontList,
        // Scripts no font here has (CJK, emoji): left out rather than fetched.
        loadAdditionalAsset: async () => [],
      });
      pngs.push(new Resvg(svg, { fitTo: { mode: "original" } }).render().asPng());
    }
    parentPort.postMessage({ ok: true, pngs });
  })().catch((error: unknown) => parentPort.postMessage({ ok: false, error: String(error) }));
}

const WORKER_SOURCE = `"use strict";(${drawInWorker.toString()})(require);`;

let resolved: { satoriPath: string; resvgPath: string; fonts: Fonts } | undefined;

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
    fonts: {
      regular: subsets.map((s) => font(s, 400)),
      bold: subsets.map((s) => font(s, 700)),
    },
  };
  return resolved;
}

/**
 * Draws `cards` in a worker thread, in order: their PNGs, each under CARD_LIMITS.maxBytes, or
 * an error (the thread failed, or took longer than CARD_LIMITS.batchMs).
 */
export async function drawCards(cards: CardSpec[]): Promise<Uint8Array[]> {
  const drawn = await drawInThread(cards);
  const small: Uint8Array[] = [];
  for (const png of drawn) small.push(await compress(png));
  return small;
}

/**
 * resvg's PNG made small: a palette of at most 256 colours (flat areas and text lose nothing; a
 * photo is dithered), fewer when that is still over the limit. sharp works in libuv's threads,
 * off the event loop.
 */
async function compress(png: Uint8Array): Promise<Uint8Array> {
  const sharp = await loadSharp();
  let out: Uint8Array = png;
  for (const colours of CARD_LIMITS.paletteColours) {
    out = await sharp(png)
      .png({ palette: true, colours, compressionLevel: 9, effort: 7 })
      .toBuffer();
    if (out.byteLength <= CARD_LIMITS.maxBytes) break;
  }
  return new Uint8Array(out);
}

function drawInThread(cards: CardSpec[]): Promise<Uint8Array[]> {
  const { satoriPath, resvgPath, fonts } = packages();
  const workerData: WorkerData = {
    satoriPath,
    resvgPath,
    fonts,
    cards,
    size: CARD_SIZE,
    limits: CARD_LIMITS,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    let done = false;
    const finish = (answer: WorkerAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void worker.terminate();
      if (answer.ok) resolve(answer.pngs.map((png) => new Uint8Array(png)));
      else reject(new Error(`The share cards were not drawn: ${answer.error}`));
    };
    const timer = setTimeout(() => finish({ ok: false, error: "too slow" }), CARD_LIMITS.batchMs);
    worker.once("message", finish);
    worker.once("error", (error) => finish({ ok: false, error: String(error) }));
    worker.once("exit", () => finish({ ok: false, error: "the thread ended" }));
  });
}

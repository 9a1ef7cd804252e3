import { randomBytes } from "node:crypto";

import sharp from "sharp";

/**
 * The heavy inputs an owner can send, as a review measured them, made here from code (no
 * binary fixtures in the repository). Sizes are asserted by the test that uses them.
 */

/**
 * A valid PDF of exactly `size` bytes: a catalog, an empty page tree and one stream of random
 * bytes (a real CV's fonts and images are compressed, so they do not compress again on the way).
 */
export function pdfOfSize(size: number): Buffer {
  const head = Buffer.from(
    [
      "%PDF-1.4",
      "1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj",
      "2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj",
      "3 0 obj <</Length 0000000000>>",
      "stream",
      "",
    ].join("\n"),
  );
  const tail = Buffer.from("\nendstream\nendobj\ntrailer <</Root 1 0 R>>\n%%EOF\n");
  const length = size - head.length - tail.length;
  const fixedHead = Buffer.from(
    head.toString("latin1").replace("0000000000", String(length).padStart(10, "0")),
    "latin1",
  );
  return Buffer.concat([fixedHead, randomBytes(length), tail]);
}

/**
 * `resume` (a valid JSON Resume's text, such as the site's own /resume.json) with its work list
 * replaced by `entries` entries, padded to about `size` bytes: some entries have a name of the
 * wrong type (a schema error each), the others only a member the standard does not know, so
 * every check that visits each entry has work to do and problems to report.
 */
export function resumeWithEntries(resume: string, entries: number, size: number): string {
  const placeholder = "WORK-ENTRIES";
  const [head, tail] = JSON.stringify({
    ...(JSON.parse(resume) as object),
    work: placeholder,
  }).split(`"${placeholder}"`) as [string, string];
  const wrong = '{"name":1}';
  const unknown = '{"x":1}';
  // How many of the longer entries fill the document to `size`.
  const base = head.length + tail.length + 2 + (entries - 1) + entries * unknown.length;
  const longer = Math.max(
    0,
    Math.min(entries, Math.floor((size - base) / (wrong.length - unknown.length))),
  );
  const items = Array.from({ length: entries }, (_, i) =>
    // Spread through the list, not bunched at its start.
    Math.floor(((i + 1) * longer) / entries) > Math.floor((i * longer) / entries) ? wrong : unknown,
  );
  return `${head}[${items.join(",")}]${tail}`;
}

/**
 * `resume` (a valid JSON Resume's text) with one more member, arrays nested `depth` deep (2 bytes
 * a level): valid as far as the standard goes, since it allows members of its own.
 */
export function resumeNested(resume: string, depth: number): string {
  const body = resume.trim();
  if (!body.endsWith("}")) throw new Error("not a JSON object");
  return `${body.slice(0, -1)},"nested":${"[".repeat(depth)}${"]".repeat(depth)}}`;
}

const RED = { r: 220, g: 20, b: 20 };
const BLUE = { r: 20, g: 20, b: 220 };

/** An animated GIF of `frames` frames of width × height, alternating two colours (tiny on disk). */
export async function animatedGif(frames: number, width: number, height: number) {
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width, height, channels: 3, background: i % 2 ? BLUE : RED } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pages, { join: { animated: true } })
    .gif({ delay: Array.from({ length: frames }, () => 100) })
    .toBuffer();
}

/**
 * A large photo as a camera makes it: width × height of noisy texture (so it does not compress
 * to nothing), as a JPEG of a few megabytes. `tint` makes each one different bytes.
 */
export function largePhoto(width: number, height: number, tint: number) {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: tint % 256, g: 120, b: 150 },
      noise: { type: "gaussian", mean: 128, sigma: 20 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
}

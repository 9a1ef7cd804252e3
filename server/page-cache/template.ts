import { createHash } from "node:crypto";
import { constants as zlib, crc32, deflateRawSync, gzipSync } from "node:zlib";

import type { CacheTag } from "../../app/lib/cache-tags";
import { crc32Resplice, crc32Shift } from "../crc32";

/**
 * How the page cache keeps a body: as templates with a slot wherever the render's CSP nonce was,
 * so every response still carries a fresh nonce (server/security.ts). Plain, and as gzip whose
 * slots are stored (uncompressed) blocks: a hit copies a template, writes the nonce into its
 * slots and reckons the gzip CRC-32 from a stored one, with no compression and no pass over the
 * page (docs/decisions/009-cache-hits-at-the-listener.md).
 */

/** The random bytes in every nonce a response carries (server/security.ts, server/fast-path.ts). */
export const NONCE_BYTES = 16;
/** Their length in base64: templates keep a slot of this length wherever the render's nonce was. */
const NONCE_LENGTH = 4 * Math.ceil(NONCE_BYTES / 3);

/**
 * A body with slots for the nonce: byte offsets where NONCE_LENGTH bytes of it go, and the bytes
 * around them (views of `bytes`, made once, that every response writes as they are).
 */
export type Template = { bytes: Buffer; slots: number[]; around: Buffer[] };
/**
 * A gzip body's template, and what its trailer needs: the CRC-32 of the plain body with zeros in
 * its slots, and the slots' places for crc32Resplice.
 */
export type GzipTemplate = Template & { crcWithZeros: number; slotShifts: number };

const EMPTY_SLOT = Buffer.alloc(NONCE_LENGTH);

/** What a render hands the cache: its body split where its nonce was. */
export type Rendered = {
  status: number;
  headers: [string, string][];
  etag: string;
  tags: readonly CacheTag[];
  parts: Buffer[];
};

/** A stored page: its templates and what its responses need besides the body. */
export type StoredBody = { plain: Template; gzip: GzipTemplate };

export function etagOf(parts: Buffer[]): string {
  const hash = createHash("sha256");
  for (const [index, part] of parts.entries()) {
    if (index > 0) hash.update("\0nonce\0");
    hash.update(part);
  }
  return `W/"${hash.digest("base64url").slice(0, 27)}"`;
}

export function splitBuffer(body: Buffer, separator: string): Buffer[] {
  if (!separator) return [body];
  const marker = Buffer.from(separator);
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, start)) {
    parts.push(body.subarray(start, at));
    start = at + marker.length;
  }
  parts.push(body.subarray(start));
  return parts;
}

/** The parts with an empty slot between each two. */
export function plainTemplate(parts: Buffer[]): Template {
  const slots: number[] = [];
  const pieces: Buffer[] = [];
  let length = 0;
  for (const [index, part] of parts.entries()) {
    if (index > 0) {
      slots.push(length);
      pieces.push(EMPTY_SLOT);
      length += NONCE_LENGTH;
    }
    pieces.push(part);
    length += part.length;
  }
  const bytes = Buffer.concat(pieces, length);
  return { bytes, slots, around: aroundSlots(bytes, slots, bytes.length) };
}

/** The bytes before, between and after the slots, up to `end`. */
function aroundSlots(bytes: Buffer, slots: number[], end: number): Buffer[] {
  const around: Buffer[] = [];
  let start = 0;
  for (const slot of slots) {
    around.push(bytes.subarray(start, slot));
    start = slot + NONCE_LENGTH;
  }
  around.push(bytes.subarray(start, end));
  return around;
}

/** RFC 1952: no name, no time, deflate, Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** RFC 1951 §3.2.4: a non-final stored block's header for NONCE_LENGTH bytes. */
const SLOT_BLOCK_HEADER = Buffer.from([0, NONCE_LENGTH, 0, ~NONCE_LENGTH & 0xff, 0xff]);
/** RFC 1952's trailer: the plain body's CRC-32, then its size modulo 2^32, little-endian. */
const TRAILER_BYTES = 8;

function writeTrailer(into: Buffer, at: number, crc: number, size: number) {
  into.writeUInt32LE(crc, at);
  into.writeUInt32LE(size % 2 ** 32, at + 4);
}

/** DEFLATE's window: how far back a match may reach. */
const WINDOW = 32 * 1024;

/**
 * The gzip template: each part as raw DEFLATE (every part but the last ending with a sync flush,
 * byte-aligned and not final), with each slot between them as a stored block, then the trailer
 * (filled per response). Each part is compressed with what precedes it as its dictionary, nonce
 * slots as NUL bytes: the page compresses as well as in one stream, and since page HTML holds no
 * NUL byte, no match can reach into a slot, so a fresh nonce there changes no other byte. A page
 * that does hold a NUL is compressed part by part without a dictionary.
 */
export function gzipTemplate(parts: Buffer[], plain: Template): GzipTemplate {
  const primed = !parts.some((part) => part.includes(0));
  const pieces: Buffer[] = [GZIP_HEADER];
  const slots: number[] = [];
  let length = GZIP_HEADER.length;
  let offset = 0; // where this part starts in the plain body
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    const deflated = deflateRawSync(part, {
      finishFlush: last ? zlib.Z_FINISH : zlib.Z_SYNC_FLUSH,
      ...(primed && offset > 0
        ? { dictionary: plain.bytes.subarray(Math.max(0, offset - WINDOW), offset) }
        : {}),
    });
    pieces.push(deflated);
    length += deflated.length;
    offset += part.length;
    if (!last) {
      pieces.push(SLOT_BLOCK_HEADER, EMPTY_SLOT);
      slots.push(length + SLOT_BLOCK_HEADER.length);
      length += SLOT_BLOCK_HEADER.length + NONCE_LENGTH;
      offset += NONCE_LENGTH;
    }
  }
  pieces.push(Buffer.alloc(TRAILER_BYTES)); // per response, unless the page has no slot
  const size = plain.bytes.length;
  const bytes = Buffer.concat(pieces);
  const crcWithZeros = crc32(plain.bytes);
  // Without a slot the trailer is the same for every response: written once, here, so that a
  // hit sends the body as one piece.
  const whole = slots.length === 0;
  if (whole) writeTrailer(bytes, bytes.length - TRAILER_BYTES, crcWithZeros, size);
  return {
    bytes,
    slots,
    around: aroundSlots(bytes, slots, whole ? bytes.length : bytes.length - TRAILER_BYTES),
    crcWithZeros,
    slotShifts: plain.slots.reduce((sum, slot) => sum ^ crc32Shift(size - slot - NONCE_LENGTH), 0),
  };
}

/**
 * One response's body as the pieces to write in turn: the template's bytes around its slots,
 * which every response shares, this response's nonce between them and, for gzip, the trailer
 * after them, its CRC-32 reckoned from the stored one (server/crc32.ts). Nothing the size of the
 * page is copied or allocated per response: a fresh buffer per hit cost cached pages about a
 * fifth of their throughput (docs/decisions/009-cache-hits-at-the-listener.md).
 */
export function bodyPieces(entry: StoredBody, nonce: string, gzip: boolean): readonly Buffer[] {
  const template = gzip ? entry.gzip : entry.plain;
  // No nonce in the page (a feed, robots.txt, a route's data): the same bytes for every response.
  if (template.slots.length === 0) return template.around;
  if (Buffer.byteLength(nonce) !== NONCE_LENGTH) {
    return [anyNonce(entry.plain, nonce, gzip)];
  }
  const fresh = Buffer.from(nonce, "latin1");
  const pieces: Buffer[] = [];
  for (const [index, part] of template.around.entries()) {
    if (index > 0) pieces.push(fresh);
    pieces.push(part);
  }
  if (gzip) {
    const trailer = Buffer.allocUnsafe(TRAILER_BYTES);
    const crc = crc32Resplice(entry.gzip.crcWithZeros, entry.gzip.slotShifts, nonce);
    writeTrailer(trailer, 0, crc, entry.plain.bytes.length);
    pieces.push(trailer);
  }
  return pieces;
}

/** Not a nonce this server makes (tests): the plain body around it, compressed as it is. */
function anyNonce({ bytes, slots }: Template, nonce: string, gzip: boolean): Buffer {
  const marker = Buffer.from(nonce);
  const pieces = [bytes.subarray(0, slots[0])];
  for (const [index, slot] of slots.entries()) {
    pieces.push(marker, bytes.subarray(slot + NONCE_LENGTH, slots[index + 1]));
  }
  const plain = Buffer.concat(pieces);
  return gzip ? gzipSync(plain) : plain;
}

/** One response's body whole: the page with this response's nonce wherever the render's was. */
export function bodyOf(entry: StoredBody, nonce: string, gzip: boolean): Buffer {
  return Buffer.concat(bodyPieces(entry, nonce, gzip));
}

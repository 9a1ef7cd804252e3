/**
 * CRC-32 arithmetic from zlib's crc32.c (crc32_combine and its helpers), which Node does not
 * expose. The page cache uses it so that a cache hit computes the gzip trailer for a fresh nonce
 * without reading the page again (crc32Resplice).
 *
 * Polynomials over GF(2) in zlib's reflected form: bit 31 is x^0.
 */
import { crc32 } from "node:zlib";

const POLY = 0xedb88320;

/** a·b modulo the CRC-32 polynomial. */
function multiplyModP(a: number, b: number): number {
  if (a === 0) return 0;
  let m = 0x80000000;
  let product = 0;
  for (;;) {
    if (a & m) {
      product ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0..31. */
const X_2N = (() => {
  const table = new Array<number>(32);
  let p = 0x40000000; // x^1
  table[0] = p;
  for (let k = 1; k < 32; k++) table[k] = p = multiplyModP(p, p);
  return table;
})();

/** The operator that appends `length` bytes: x^(8·length) modulo the polynomial. */
export function crc32Shift(length: number): number {
  let p = 0x80000000; // x^0
  let k = 3; // 2^3 bits a byte
  for (let n = length; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2) p = multiplyModP(X_2N[k % 32]!, p);
  }
  return p;
}

/** crc32 of `length` zero bytes, by length. */
const zeroCrcs = new Map<number, number>();

/**
 * The CRC-32 of a message whose slots of equal length all hold `slot`, from the CRC-32 of the
 * same message with zero bytes in its slots (`crcWithZeros`) and the XOR of crc32Shift(bytes
 * after each slot) (`slotShifts`). Over messages of one length CRC-32 is affine: two CRCs differ
 * by the remainder of the messages' difference, here `slot`'s remainder (crc32(slot) ^
 * crc32(zeros)) shifted to each slot's place, and the shifts add up.
 */
export function crc32Resplice(
  crcWithZeros: number,
  slotShifts: number,
  slot: string | Uint8Array,
): number {
  const length = typeof slot === "string" ? Buffer.byteLength(slot) : slot.length;
  let zeros = zeroCrcs.get(length);
  if (zeros === undefined) zeroCrcs.set(length, (zeros = crc32(Buffer.alloc(length))));
  return (crcWithZeros ^ multiplyModP(slotShifts, crc32(slot) ^ zeros)) >>> 0;
}

/**
 * CRC-32 of a concatenation from the CRC-32s of its pieces (zlib's crc32_combine, which Node does
 * not expose). The page cache stores each part's CRC and the operator for its length once, so a
 * cache hit computes the gzip trailer for a fresh nonce without reading the page again.
 *
 * Polynomials over GF(2) in zlib's reflected form: bit 31 is x^0.
 */
const POLY = 0xedb88320;

/** a·b modulo the CRC-32 polynomial. */
function multiplyModP(a: number, b: number): number {
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

/** CRC-32 of A followed by B, from crc(A), crc(B) and crc32Shift(B's length). */
export function crc32Combine(crcA: number, crcB: number, shiftB: number): number {
  return (multiplyModP(shiftB, crcA) ^ crcB) >>> 0;
}

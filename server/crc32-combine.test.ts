import { crc32 } from "node:zlib";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { crc32Combine, crc32Shift } from "./crc32-combine";

describe("crc32Combine", () => {
  it("equals zlib's CRC-32 of the concatenation, for any two pieces", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 70_000, size: "max" }),
        (a, b) => {
          const whole = crc32(Buffer.concat([a, b]));
          expect(crc32Combine(crc32(a), crc32(b), crc32Shift(b.length))).toBe(whole);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("leaves a CRC alone when nothing is appended, and handles lengths past 2^16", () => {
    const a = Buffer.from("<script nonce=");
    expect(crc32Combine(crc32(a), 0, crc32Shift(0))).toBe(crc32(a));
    const big = Buffer.alloc(300_000, 0x61);
    expect(crc32Combine(crc32(a), crc32(big), crc32Shift(big.length))).toBe(
      crc32(Buffer.concat([a, big])),
    );
  });
});

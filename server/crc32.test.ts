import { crc32 } from "node:zlib";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { crc32Resplice, crc32Shift } from "./crc32";

/** The message with `slot` written at each offset. */
function withSlots(message: Uint8Array, offsets: number[], slot: Uint8Array): Buffer {
  const copy = Buffer.from(message);
  for (const offset of offsets) copy.set(slot, offset);
  return copy;
}

describe("crc32Resplice", () => {
  it("equals zlib's CRC-32 of the message with the slot's bytes in every slot", () => {
    const case_ = fc
      .record({
        slotLength: fc.integer({ min: 1, max: 32 }),
        gaps: fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 30 }),
        tail: fc.integer({ min: 0, max: 70_000 }),
        seed: fc.integer(),
      })
      .chain(({ slotLength, gaps, tail, seed }) => {
        // Slots separated by the gaps, then the tail: offsets of each slot in the message.
        const offsets: number[] = [];
        let length = 0;
        for (const gap of gaps) {
          offsets.push(length + gap);
          length += gap + slotLength;
        }
        length += tail;
        return fc.record({
          message: fc.uint8Array({ minLength: length, maxLength: length }),
          slot: fc.uint8Array({ minLength: slotLength, maxLength: slotLength }),
          offsets: fc.constant(offsets),
          seed: fc.constant(seed),
        });
      });
    fc.assert(
      fc.property(case_, ({ message, slot, offsets }) => {
        const zeros = withSlots(message, offsets, new Uint8Array(slot.length));
        const shifts = offsets.reduce(
          (sum, offset) => sum ^ crc32Shift(message.length - offset - slot.length),
          0,
        );
        expect(crc32Resplice(crc32(zeros), shifts, Buffer.from(slot))).toBe(
          crc32(withSlots(message, offsets, slot)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("leaves a message without slots alone, and reaches slots more than 2^16 bytes from the end", () => {
    const page = Buffer.alloc(300_000, 0x61);
    expect(crc32Resplice(crc32(page), 0, Buffer.from("nonce"))).toBe(crc32(page));
    const slot = Buffer.from("bm9uY2Uvd2l0aCtiYXNlNjQ=");
    const zeros = withSlots(page, [10], new Uint8Array(slot.length));
    expect(crc32Resplice(crc32(zeros), crc32Shift(page.length - 10 - slot.length), slot)).toBe(
      crc32(withSlots(page, [10], slot)),
    );
  });
});

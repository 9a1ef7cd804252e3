import { describe, expect, it } from "vitest";

import { freshNonce } from "./fast-path";

describe("freshNonce", () => {
  it("gives 16 random bytes in base64, never the same twice, across refills of its pool", () => {
    // 5,000 nonces draw the 1,024-nonce pool almost five times over.
    const nonces = Array.from({ length: 5000 }, freshNonce);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});

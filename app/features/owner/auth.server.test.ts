import { describe, expect, it } from "vitest";

import { hashPassword, verifyPassword } from "./auth.server";

describe("password hashes", () => {
  it("are salted scrypt with the OWASP parameters, and verify only the right password", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).toMatch(/^scrypt\$16384\$8\$5\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct hors", a)).toBe(false);
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });

  it("still verify hashes made with the earlier N=2^17, r=8, p=1", async () => {
    const { scryptSync } = await import("node:crypto");
    const salt = Buffer.from("0123456789abcdef");
    const key = scryptSync("old password", salt, 32, {
      N: 2 ** 17,
      r: 8,
      p: 1,
      maxmem: 256 * 1024 * 1024,
    });
    const old = `scrypt$131072$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword("old password", old)).toBe(true);
    expect(await verifyPassword("new password", old)).toBe(false);
  });
});

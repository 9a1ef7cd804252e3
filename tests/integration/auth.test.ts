import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  ensureOwnerPassword,
  isValidSession,
  MAX_FAILURES,
  MAX_PASSWORD_CHECKS,
  setOwnerPassword,
  signIn,
  signOut,
} from "../../app/features/owner/auth.server";
import { owner, ownerDevices, sessions, signInFailures } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`sign-in on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
      await setOwnerPassword(database.db, "owner-password");
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("creates a session on the right password and stores only its hash", async () => {
      const result = await signIn(database.db, "owner-password", "10.0.0.1");
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.sessionId).toMatch(/^[\w-]{43}$/); // 256 bits
      const rows = await database.db.select().from(sessions);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.idHash).not.toBe(result.sessionId);
      expect(rows[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
      expect(await isValidSession(database.db, result.sessionId)).toBe(true);
      expect(await isValidSession(database.db, "forged")).toBe(false);
      await signOut(database.db, result.sessionId);
      expect(await isValidSession(database.db, result.sessionId)).toBe(false);
    });

    it("gives every sign-in a new session id, and refuses expired sessions", async () => {
      const first = await signIn(database.db, "owner-password", "10.0.0.1");
      const second = await signIn(database.db, "owner-password", "10.0.0.1");
      expect(first.ok && second.ok && first.sessionId !== second.sessionId).toBe(true);
      await database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
      expect(second.ok && (await isValidSession(database.db, second.sessionId))).toBe(false);
    });

    it("guesses sent all at once get no more than 5 password checks", async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => signIn(database.db, "wrong", "10.0.0.7")),
      );
      const reasons = results.map((r) => (r.ok ? "ok" : r.reason));
      const checked = reasons.filter((r) => r === "wrong-password").length;
      // Some admitted guesses may find both password checks taken (busy, and not counted).
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThanOrEqual(MAX_FAILURES);
      expect(reasons.filter((r) => r === "ok")).toHaveLength(0);
      const [{ n }] = (await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(signInFailures)) as [{ n: number }];
      expect(n).toBe(checked);
    });

    it(`runs at most ${MAX_PASSWORD_CHECKS} password checks at once: beyond, busy and uncounted`, async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => signIn(database.db, "wrong", `10.1.0.${i + 1}`)),
      );
      const reasons = results.map((r) => (r.ok ? "ok" : r.reason));
      const busy = reasons.filter((r) => r === "busy").length;
      const checked = reasons.filter((r) => r === "wrong-password").length;
      console.log(`8 sign-ins at once from 8 addresses: ${checked} checked, ${busy} busy`);
      expect(busy).toBeGreaterThan(0);
      expect(busy + checked).toBe(8);
      const rows = await database.db.select().from(signInFailures);
      expect(rows).toHaveLength(checked);
    });

    it("never refuses the owner's browser for other clients' failures, and still throttles them", async () => {
      const first = await signIn(database.db, "owner-password", "10.2.0.1");
      if (!first.ok || !first.newDevice) throw new Error("no device token on the first sign-in");
      const device = first.newDevice;
      expect(device).toMatch(/^[\w-]{43}$/);
      // Someone at the same address guesses until throttled.
      for (let i = 0; i < MAX_FAILURES; i++) await signIn(database.db, "guess", "10.2.0.1");
      expect(await signIn(database.db, "owner-password", "10.2.0.1")).toEqual({
        ok: false,
        reason: "throttled",
      });
      // A made-up device cookie is no device: still throttled by address.
      expect(await signIn(database.db, "owner-password", "10.2.0.1", "made-up-token")).toEqual({
        ok: false,
        reason: "throttled",
      });
      // The owner's browser signs in; a known device gets no new token.
      const again = await signIn(database.db, "owner-password", "10.2.0.1", device);
      expect(again.ok && again.newDevice).toBe(null);
      // Wrong passwords on that device throttle the device itself.
      for (let i = 0; i < MAX_FAILURES; i++) {
        expect((await signIn(database.db, "typo", "10.9.9.9", device)).ok).toBe(false);
      }
      expect(await signIn(database.db, "owner-password", "10.9.9.9", device)).toEqual({
        ok: false,
        reason: "throttled",
      });
      // A new password forgets every device.
      await setOwnerPassword(database.db, "another-password");
      expect((await database.db.select().from(ownerDevices)).length).toBe(0);
    });

    it("prunes failures older than the window, whoever fails next", async () => {
      await database.db.execute(
        sql`insert into sign_in_failures (address, failed_at)
            select '10.3.0.' || g, now() - interval '2 hours' from generate_series(1, 150) g`,
      );
      await signIn(database.db, "wrong", "10.4.0.1");
      await signIn(database.db, "wrong", "10.4.0.2");
      const rows = await database.db.select().from(signInFailures);
      expect(rows.map((r) => r.address).sort()).toEqual(["10.4.0.1", "10.4.0.2"]);
    });

    it("throttles an address after 5 failures in an hour, without checking the password", async () => {
      for (let i = 0; i < MAX_FAILURES; i++) {
        expect(await signIn(database.db, "wrong", "10.0.0.2")).toEqual({
          ok: false,
          reason: "wrong-password",
        });
      }
      expect(await signIn(database.db, "owner-password", "10.0.0.2")).toEqual({
        ok: false,
        reason: "throttled",
      });
      // Another address is not affected; failures older than an hour no longer count.
      expect((await signIn(database.db, "owner-password", "10.0.0.3")).ok).toBe(true);
      await database.db
        .update(signInFailures)
        .set({ failedAt: sql`now() - interval '61 minutes'` })
        .where(eq(signInFailures.address, "10.0.0.2"));
      expect((await signIn(database.db, "owner-password", "10.0.0.2")).ok).toBe(true);
    });

    it("a new password signs every session out", async () => {
      const result = await signIn(database.db, "owner-password", "10.0.0.1");
      await setOwnerPassword(database.db, "another-password");
      expect(result.ok && (await isValidSession(database.db, result.sessionId))).toBe(false);
      expect((await signIn(database.db, "another-password", "10.0.0.1")).ok).toBe(true);
    });

    it("at start-up applies OWNER_PASSWORD, or generates a password once", async () => {
      await database.db.delete(owner);
      const generated = await ensureOwnerPassword(database.db, undefined);
      expect(generated).toMatch(/^[\w-]{24}$/);
      expect(await ensureOwnerPassword(database.db, undefined)).toBeNull();
      expect((await signIn(database.db, generated!, "10.0.0.1")).ok).toBe(true);

      const [before] = await database.db.select().from(owner);
      expect(await ensureOwnerPassword(database.db, "from-the-env")).toBeNull();
      const [after] = await database.db.select().from(owner);
      expect(after!.passwordHash).not.toBe(before!.passwordHash);
      // The same env password again changes nothing.
      await ensureOwnerPassword(database.db, "from-the-env");
      const [again] = await database.db.select().from(owner);
      expect(again!.passwordHash).toBe(after!.passwordHash);
    });
  });
}

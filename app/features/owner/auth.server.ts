import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

import { and, count, eq, gt, lt, sql } from "drizzle-orm";

import { lockUntilCommit, type Database } from "../../../database/db.server";
import { owner, ownerDevices, sessions, signInFailures } from "../../../database/schema";
import { DAY_MS, formatDuration, HOUR_MS } from "~/lib/format";
import { retryAfter } from "~/lib/limits";

/**
 * The owner's sign-in: scrypt password hashes (OWASP Password Storage Cheat Sheet: N=2^14,
 * r=8, p=5, its equal of N=2^17, r=8, p=1 in work but 16 MiB of memory per check instead of
 * 128 MiB, so start-up and parallel sign-ins stay within the server's memory budget; hashes
 * made with other parameters still verify, as each hash names its own), random 256-bit
 * session ids stored only as SHA-256, and a throttle of MAX_FAILURES failed attempts per
 * address per FAILURE_WINDOW_MS (Ghost's rule: 5 an hour), all in the database so every
 * instance agrees.
 */

export const SESSION_TTL_MS = 30 * DAY_MS;
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = HOUR_MS;
/** What a throttled address is told, and how long the 429 asks it to wait: the window. */
export const SIGN_IN_THROTTLED = `Too many failed attempts from your address. Try again in ${formatDuration(FAILURE_WINDOW_MS)}.`;
export const SIGN_IN_RETRY_AFTER = retryAfter(FAILURE_WINDOW_MS);

/**
 * Password checks running at once, at most: each takes 16 MiB and a core for tens of
 * milliseconds, so a burst of guesses must not take the server's memory and CPU. Beyond it an
 * attempt is answered 503 at once, unchecked and uncounted, and asked to retry after this.
 */
export const MAX_PASSWORD_CHECKS = 2;
export const SIGN_IN_BUSY_RETRY_MS = 1_000;
export const SIGN_IN_BUSY = "The server is checking other sign-ins. Try again in a second.";
/** How long a browser the owner signed in on stays known without signing in again. */
export const DEVICE_TTL_MS = 365 * DAY_MS;
/** Old failure rows removed per attempt (enough to keep up with any flood, cheap by index). */
const PRUNE_BATCH = 100;

const MiB = 1024 * 1024;
const SCRYPT = { N: 2 ** 14, r: 8, p: 5, keyLength: 32, saltLength: 16 } as const;
/** scrypt needs more than 128 * N * r bytes: 16 MiB now, 128 MiB for older N=2^17 hashes. */
const SCRYPT_MAX_MEMORY_BYTES = 256 * MiB;

function scryptAsync(
  password: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  length: number,
) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, length, { N, r, p, maxmem: SCRYPT_MAX_MEMORY_BYTES }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return [
    "scrypt",
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scryptAsync(
    password,
    Buffer.from(salt, "base64url"),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return timingSafeEqual(key, expected);
}

/** A password for a first start without OWNER_PASSWORD: 24 random characters. */
export const generatePassword = () => randomBytes(18).toString("base64url");

export async function setOwnerPassword(db: Database, password: string) {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx
      .insert(owner)
      .values({ passwordHash })
      .onConflictDoUpdate({ target: owner.id, set: { passwordHash, updatedAt: new Date() } });
    // A new password signs every session out, and forgets every browser it was used on.
    await tx.delete(sessions);
    await tx.delete(ownerDevices);
  });
}

/**
 * At start-up: OWNER_PASSWORD wins when set (re-hashed only if it changed); otherwise a first
 * start generates a password and returns it, to be printed once. Returns null when nothing new.
 */
export async function ensureOwnerPassword(
  db: Database,
  fromEnv: string | undefined,
): Promise<string | null> {
  const [current] = await db.select().from(owner);
  if (fromEnv !== undefined) {
    if (!current || !(await verifyPassword(fromEnv, current.passwordHash)))
      await setOwnerPassword(db, fromEnv);
    return null;
  }
  if (current) return null;
  const generated = generatePassword();
  await setOwnerPassword(db, generated);
  return generated;
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");

export type SignInResult =
  | {
      ok: true;
      sessionId: string;
      expiresAt: Date;
      /** A device token to set as a cookie, when this browser was not known yet. */
      newDevice: string | null;
    }
  | { ok: false; reason: "throttled" | "wrong-password" | "busy" };

let passwordChecks = 0;

/** The throttle key of a known device (its token's hash), or null for an unknown token. */
async function knownDevice(db: Database, token: string | null | undefined) {
  if (!token || token.length > 100) return null;
  const idHash = sha256(token);
  const [row] = await db
    .select({ idHash: ownerDevices.idHash })
    .from(ownerDevices)
    .where(
      and(
        eq(ownerDevices.idHash, idHash),
        gt(ownerDevices.lastSeenAt, new Date(Date.now() - DEVICE_TTL_MS)),
      ),
    );
  return row ? idHash : null;
}

/**
 * Checks the throttle first (without looking at the password), then the password. Each attempt
 * is counted as a failure before the password is checked, under a lock on its key, so guesses
 * sent in parallel get no more than MAX_FAILURES checks; a right password clears them.
 *
 * The key is the client's address, or, from a browser the owner signed in on before (its
 * device cookie), that device: failures from anyone else, at the same address or not, never
 * refuse the owner there (OWASP's device cookie), while a guesser without one is throttled by
 * address, and one with a stolen cookie by that device. At most MAX_PASSWORD_CHECKS run at once
 * ("busy" beyond, before anything is counted).
 */
export async function signIn(
  db: Database,
  password: string,
  address: string,
  deviceToken?: string | null,
): Promise<SignInResult> {
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  const device = await knownDevice(db, deviceToken);
  const key = device ? `device:${device}` : address;
  const admitted = await db.transaction(async (tx) => {
    await lockUntilCommit(tx, `sign-in:${key}`);
    const [failures] = await tx
      .select({ n: count() })
      .from(signInFailures)
      .where(and(eq(signInFailures.address, key), gt(signInFailures.failedAt, since)));
    if ((failures?.n ?? 0) >= MAX_FAILURES) return null;
    const [row] = await tx
      .insert(signInFailures)
      .values({ address: key })
      .returning({ id: signInFailures.id });
    return row!.id;
  });
  // Failures older than the window count for nothing: a few go with every attempt, so a
  // guesser who never succeeds cannot grow the table.
  await db.execute(sql`
    delete from ${signInFailures} where ${signInFailures.id} in (
      select ${signInFailures.id} from ${signInFailures}
      where ${signInFailures.failedAt} < ${since.toISOString()}::timestamptz limit ${PRUNE_BATCH})`);
  if (admitted === null) return { ok: false, reason: "throttled" };

  // Only admitted attempts take a password check; beyond the limit the attempt is not counted.
  if (passwordChecks >= MAX_PASSWORD_CHECKS) {
    await db.delete(signInFailures).where(eq(signInFailures.id, admitted));
    return { ok: false, reason: "busy" };
  }
  passwordChecks += 1;
  let right: boolean;
  try {
    const [current] = await db.select().from(owner);
    right = current !== undefined && (await verifyPassword(password, current.passwordHash));
  } finally {
    passwordChecks -= 1;
  }
  if (!right) return { ok: false, reason: "wrong-password" };

  const sessionId = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  const newDevice = device ? null : randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ idHash: sha256(sessionId), expiresAt });
    await tx.delete(signInFailures).where(eq(signInFailures.address, key));
    if (newDevice) await tx.insert(ownerDevices).values({ idHash: sha256(newDevice) });
    else
      await tx
        .update(ownerDevices)
        .set({ lastSeenAt: new Date() })
        .where(eq(ownerDevices.idHash, device!));
    // Housekeeping while we are here: expired sessions and long-unused devices.
    await tx.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    await tx
      .delete(ownerDevices)
      .where(lt(ownerDevices.lastSeenAt, new Date(Date.now() - DEVICE_TTL_MS)));
  });
  return { ok: true, sessionId, expiresAt, newDevice };
}

export async function isValidSession(db: Database, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(sessions)
    .where(and(eq(sessions.idHash, sha256(sessionId)), gt(sessions.expiresAt, new Date())));
  return row !== undefined;
}

export async function signOut(db: Database, sessionId: string) {
  await db.delete(sessions).where(eq(sessions.idHash, sha256(sessionId)));
}

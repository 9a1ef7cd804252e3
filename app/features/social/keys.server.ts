/**
 * The owner's actor key pair (RSA, what Mastodon verifies draft-cavage signatures with), made
 * once and kept in the database, so every instance signs with the same key and a restart does
 * not change it (followers' servers cache it). Two instances making it at once keep the first.
 */
import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import { eq } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { socialKv } from "../../../database/schema";

/** Its row in social_kv (Fedify's own keys are JSON arrays: no clash). */
const KEY_ROW = "owner-key-pair";

export type OwnerKeyPair = { privateKey: CryptoKey; publicKey: CryptoKey };

const pairs = new WeakMap<Database, Promise<OwnerKeyPair>>();

/** The key pair, made and stored on first use. */
export function ownerKeyPair(db: Database): Promise<OwnerKeyPair> {
  let pair = pairs.get(db);
  if (!pair) {
    pair = loadOrMake(db);
    pairs.set(db, pair);
    pair.catch(() => pairs.delete(db));
  }
  return pair;
}

type StoredPair = { privateKey: JsonWebKey; publicKey: JsonWebKey };

async function loadOrMake(db: Database): Promise<OwnerKeyPair> {
  const read = async () => {
    const [row] = await db.select().from(socialKv).where(eq(socialKv.key, KEY_ROW));
    return row?.value as StoredPair | undefined;
  };
  let stored = await read();
  if (!stored) {
    const made = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    const value: StoredPair = {
      privateKey: await exportJwk(made.privateKey),
      publicKey: await exportJwk(made.publicKey),
    };
    await db.insert(socialKv).values({ key: KEY_ROW, value }).onConflictDoNothing();
    stored = (await read())!;
  }
  return {
    privateKey: await importJwk(stored.privateKey, "private"),
    publicKey: await importJwk(stored.publicKey, "public"),
  };
}

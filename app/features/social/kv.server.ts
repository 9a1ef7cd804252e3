/**
 * Fedify's key-value store (remote documents and keys it fetched, activities it has seen, the
 * signature spec each server answered to) in the database's `social_kv` table, so every
 * instance shares it and it outlives restarts. A key is Fedify's array of strings, stored as its
 * JSON text; an expired entry reads as absent and is deleted when met.
 */
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { and, eq, gt, isNull, like, lte, or, sql } from "drizzle-orm";

import type { Database } from "../../../database/db.server";
import { socialKv } from "../../../database/schema";

const keyText = (key: KvKey) => JSON.stringify(key);

/** Temporal.Duration to milliseconds, without needing the Temporal global (Node 24 has none). */
const ttlMs = (options?: KvStoreSetOptions) =>
  options?.ttl === undefined ? null : options.ttl.total({ unit: "millisecond" });

const live = () => or(isNull(socialKv.expiresAt), gt(socialKv.expiresAt, sql`now()`));

const expiry = (options?: KvStoreSetOptions) => {
  const ms = ttlMs(options);
  return ms === null ? null : sql`now() + make_interval(secs => ${ms / 1000})`;
};

/** A value as jsonb; JSON's null too (Fedify caches "no such key" as null), not SQL NULL. */
const jsonOf = (value: unknown) => sql`${JSON.stringify(value ?? null)}::jsonb`;

/** A LIKE pattern matching text that starts with `text` exactly. */
const startsWith = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class SocialKvStore implements KvStore {
  constructor(private readonly db: Database) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const [row] = await this.db
      .select({ value: socialKv.value })
      .from(socialKv)
      .where(and(eq(socialKv.key, keyText(key)), live()));
    return row === undefined ? undefined : (row.value as T);
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const expiresAt = expiry(options);
    const json = jsonOf(value);
    await this.db
      .insert(socialKv)
      .values({ key: keyText(key), value: json, expiresAt })
      .onConflictDoUpdate({ target: socialKv.key, set: { value: json, expiresAt } });
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.delete(socialKv).where(eq(socialKv.key, keyText(key)));
  }

  /** Sets `newValue` only if the live value is `expectedValue` (undefined: absent), atomically. */
  async cas(
    key: KvKey,
    expectedValue: unknown,
    newValue: unknown,
    options?: KvStoreSetOptions,
  ): Promise<boolean> {
    const text = keyText(key);
    const expiresAt = expiry(options);
    if (expectedValue === undefined) {
      // Absent, or present but expired.
      await this.db
        .delete(socialKv)
        .where(and(eq(socialKv.key, text), lte(socialKv.expiresAt, sql`now()`)));
      const inserted = await this.db
        .insert(socialKv)
        .values({ key: text, value: jsonOf(newValue), expiresAt })
        .onConflictDoNothing()
        .returning({ key: socialKv.key });
      return inserted.length === 1;
    }
    const updated = await this.db
      .update(socialKv)
      .set({ value: jsonOf(newValue), expiresAt })
      .where(
        and(
          eq(socialKv.key, text),
          live(),
          sql`${socialKv.value} = ${JSON.stringify(expectedValue)}::jsonb`,
        ),
      )
      .returning({ key: socialKv.key });
    return updated.length === 1;
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const parts: readonly string[] = prefix ?? [];
    const opening = parts.length === 0 ? "[" : keyText(prefix!).slice(0, -1);
    const rows = await this.db
      .select({ key: socialKv.key, value: socialKv.value })
      .from(socialKv)
      .where(and(like(socialKv.key, startsWith(opening)), live()));
    for (const row of rows) {
      const key = JSON.parse(row.key) as string[];
      if (key.length < parts.length || parts.some((part, i) => key[i] !== part)) continue;
      yield { key: key as unknown as KvKey, value: row.value };
    }
  }
}

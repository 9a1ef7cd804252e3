import { sql } from "drizzle-orm";
import { Temporal } from "@js-temporal/polyfill";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { SocialKvStore } from "../../app/features/social/kv.server";
import { drivers, skipReason, type TestDatabase } from "./databases";

/** A TTL as Fedify gives it (its types name TypeScript's Temporal; Node 24 runs the polyfill). */
const ttl = (seconds: number) => ({ ttl: Temporal.Duration.from({ seconds }) }) as never;

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(
    `Fedify's store in social_kv on ${driver.name}`,
    () => {
      let database: TestDatabase;
      let kv: SocialKvStore;
      beforeEach(async () => {
        database = await driver.fresh();
        kv = new SocialKvStore(database.db);
      });
      afterEach(() => database.dispose());

      const all = async (prefix?: readonly [string, ...string[]]) => {
        const entries: [readonly string[], unknown][] = [];
        for await (const entry of kv.list(prefix)) entries.push([entry.key, entry.value]);
        return entries.sort((a, b) => a[0].join("/").localeCompare(b[0].join("/")));
      };

      it("gets what was set (JSON null too), overwrites, deletes", async () => {
        expect(await kv.get(["a"])).toBeUndefined();
        await kv.set(["a"], { n: 1 });
        await kv.set(["b", "c"], null);
        expect(await kv.get(["a"])).toEqual({ n: 1 });
        expect(await kv.get(["b", "c"])).toBeNull();
        await kv.set(["a"], [1, "two"]);
        expect(await kv.get(["a"])).toEqual([1, "two"]);
        await kv.delete(["a"]);
        expect(await kv.get(["a"])).toBeUndefined();
      });

      it("lets an entry expire after its TTL", async () => {
        await kv.set(["short"], "x", ttl(60));
        expect(await kv.get(["short"])).toBe("x");
        await database.db.execute(
          sql`update social_kv set expires_at = now() - interval '1 second'`,
        );
        expect(await kv.get(["short"])).toBeUndefined();
        expect(await all()).toEqual([]);
      });

      it("lists by prefix, whole key parts only, with LIKE's characters taken literally", async () => {
        await kv.set(["doc", "https://a.example/x"], 1);
        await kv.set(["doc", "https://a.example/x", "more"], 2);
        await kv.set(["doc", "https://a.example/xy"], 3);
        await kv.set(["do%c", "_"], 4);
        await kv.set(["other"], 5);
        expect(await all(["doc", "https://a.example/x"])).toEqual([
          [["doc", "https://a.example/x"], 1],
          [["doc", "https://a.example/x", "more"], 2],
        ]);
        expect((await all(["doc"])).length).toBe(3);
        expect(await all(["do%c"])).toEqual([[["do%c", "_"], 4]]);
        expect((await all()).length).toBe(5);
      });

      it("compares and sets atomically: absent, a matching value, or an expired one", async () => {
        expect(await kv.cas(["k"], undefined, 1)).toBe(true);
        expect(await kv.cas(["k"], undefined, 2)).toBe(false);
        expect(await kv.cas(["k"], 2, 3)).toBe(false);
        expect(await kv.cas(["k"], 1, { v: 3 })).toBe(true);
        expect(await kv.get(["k"])).toEqual({ v: 3 });
        await database.db.execute(
          sql`update social_kv set expires_at = now() - interval '1 second'`,
        );
        expect(await kv.cas(["k"], undefined, 4)).toBe(true);
        expect(await kv.get(["k"])).toBe(4);
      });
    },
  );
}

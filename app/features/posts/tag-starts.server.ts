/**
 * Where each page of a tag's list begins, as (listed_at, post_id), cached per tag while the
 * tag's version in tag_stats (moved by triggers on every change to its list) stays the same. The
 * boundaries are found in one pass over the tag's index when its version moves, and every page
 * after that reads PAGE_SIZE rows from its boundary. At most TAG_STARTS_CACHED tags are kept per
 * database, the least recently read dropped first.
 */
import { sql } from "drizzle-orm";

import { rowsOf, type Database } from "../../../database/db.server";
import { PAGE_SIZE } from "~/lib/constants";

/** How many tags' page boundaries one process keeps per database. */
export const TAG_STARTS_CACHED = 64;

export type TagPageStarts = { version: number; starts: { at: string; id: number }[] };

const caches = new WeakMap<Database, Map<string, Promise<TagPageStarts>>>();

export async function tagPageStarts(
  db: Database,
  tag: string,
  version: number,
): Promise<TagPageStarts> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const cached = cache.get(tag);
  if (cached) {
    const value = await cached.catch(() => undefined);
    if (value && value.version === version) {
      // Most recently read last: Map keeps insertion order.
      cache.delete(tag);
      cache.set(tag, cached);
      return value;
    }
  }
  const building = buildTagPageStarts(db, tag);
  cache.delete(tag);
  cache.set(tag, building);
  while (cache.size > TAG_STARTS_CACHED) cache.delete(cache.keys().next().value!);
  building.catch(() => cache.delete(tag));
  return building;
}

async function buildTagPageStarts(db: Database, tag: string): Promise<TagPageStarts> {
  // The version is read in the same statement as the boundaries, so a change after it moves it
  // again and the next reader rebuilds.
  const rows = rowsOf<{ version: string | number | null; at: string | null; id: number | null }>(
    await db.execute(sql`
    select (select version from tag_stats where tag = ${tag}) as version, s.at, s.id
    from (select 1) as one
    left join (
      select listed_at::text as at, post_id as id,
             row_number() over (order by listed_at desc, post_id desc) as rn
      from post_tags
      where tag = ${tag} and listed_at is not null
    ) s on (s.rn - 1) % ${PAGE_SIZE} = 0
    order by s.rn`),
  );
  return {
    version: Number(rows[0]?.version ?? 0),
    starts: rows.filter((r) => r.at !== null).map((r) => ({ at: r.at!, id: Number(r.id) })),
  };
}

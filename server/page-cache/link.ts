import { randomUUID } from "node:crypto";

import { type CacheTag, noticeTagOf } from "../../app/lib/cache-tags";
import { notify, type DatabaseHandle } from "../../database/db.server";
import type { PageCache } from "./store";

/** The channel the database's triggers notify on (migration 0004). */
export const PAGE_CACHE_CHANNEL = "page_cache";
/** The longest an owner's write waits for its own change notification to come back. */
const BARRIER_TIMEOUT_MS = 1000;

/**
 * What this server sends on the channel itself (`barrier:<uuid>`), to learn when its own writes'
 * notices have arrived: no change, and no tag.
 */
const BARRIER_PREFIX = "barrier:";

export const isBarrier = (payload: string) => payload.startsWith(BARRIER_PREFIX);

/** The tags a NOTIFY payload (app/lib/cache-tags.ts) drops; "all" when it is not understood. */
export function tagsOfChange(payload: string): CacheTag[] | "all" {
  const tag = noticeTagOf(payload);
  if (tag === null) return "all";
  // Any post's change drops every blog page: a post's page shows others (related posts), and a
  // new slug or tag moves links on pages that do not name the post.
  return tag === "posts" ? ["posts", "post-pages"] : [tag];
}

/**
 * Connects the cache to the database's change notifications (migration 0004). `barrier`
 * resolves once every change committed before it was called has reached this cache.
 */
export async function linkPageCache(
  cache: PageCache,
  database: DatabaseHandle,
  /** Told of each change first, so what it forgets is gone before the pages are re-rendered. */
  beforeDrop: (payload: string | null) => void = () => {},
) {
  const waiting = new Map<string, () => void>();
  const subscription = await database.listen(
    PAGE_CACHE_CHANNEL,
    (payload) => {
      if (isBarrier(payload)) {
        waiting.get(payload)?.();
        return;
      }
      beforeDrop(payload);
      cache.invalidate(tagsOfChange(payload));
    },
    () => {
      beforeDrop(null);
      cache.invalidate("all");
    },
  );
  return {
    barrier: async () => {
      const token = `${BARRIER_PREFIX}${randomUUID()}`;
      let timer: NodeJS.Timeout | undefined;
      const seen = new Promise<void>((resolve) => {
        waiting.set(token, resolve);
        timer = setTimeout(resolve, BARRIER_TIMEOUT_MS);
      });
      try {
        await notify(database.db, PAGE_CACHE_CHANNEL, token);
        await seen;
      } catch {
        // The database is unreachable: nothing was written either.
      } finally {
        clearTimeout(timer);
        waiting.delete(token);
      }
    },
    close: () => subscription.close(),
  };
}

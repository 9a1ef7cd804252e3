import { randomUUID } from "node:crypto";

import { notify, type DatabaseHandle } from "../../database/db.server";
import type { PageCache } from "./store";

/** The channel the database's triggers notify on (migration 0004). */
export const PAGE_CACHE_CHANNEL = "page_cache";
/** The longest an owner's write waits for its own change notification to come back. */
const BARRIER_TIMEOUT_MS = 1000;

/** Notices that name one tag each (migration 0005): parts of the owner's résumé. */
const RESUME_CHANGES = new Set(["site", "profile", "experience", "education"]);

/** The tags a NOTIFY payload from migrations 0004-0005 drops; "all" when it is not understood. */
export function tagsOfChange(payload: string): string[] | "all" {
  if (RESUME_CHANGES.has(payload)) return [payload];
  // Any post's change drops every blog page: a post's page shows others (related posts), and a
  // new slug or tag moves links on pages that do not name the post.
  if (payload === "posts" || /^posts:\d+(?:,\d+)*$/.test(payload)) return ["posts", "post-pages"];
  return "all";
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
      if (payload.startsWith("barrier:")) {
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
      const token = `barrier:${randomUUID()}`;
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

import type { Database } from "../database/db.server";
import { errorMessage, logEvent } from "../app/lib/log.server";
import { nextScheduledIn, publishDuePosts } from "../app/features/posts/index.server";
import { MINUTE_MS, SECOND_MS } from "../app/lib/format";

/**
 * The longest the publisher sleeps without looking: a schedule written while this instance's
 * change notices were cut off is still met within it.
 */
export const PUBLISHER_LOOK_EVERY_MS = MINUTE_MS;
/** After a failed look (the database is away), the next comes this soon. */
const RETRY_MS = 5 * SECOND_MS;
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Publishes scheduled posts when their time comes, on every instance, with no request: a timer
 * set for the next due post by the database's clock. Whichever instance's timer fires first
 * publishes (publishDuePosts is idempotent) and the database's change notice drops every
 * instance's cached lists, feeds and sitemap at that moment. `changed()` is called on every
 * post change notice, from any instance, so a new schedule re-arms the timer.
 */
export function startPublisher(db: Database) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const arm = (ms: number) => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(look, Math.min(ms, PUBLISHER_LOOK_EVERY_MS, MAX_TIMER_MS));
    timer.unref();
  };

  async function once() {
    try {
      const published = await publishDuePosts(db);
      if (published.length > 0) logEvent("info", "posts-published", { ids: published.join(",") });
      const next = await nextScheduledIn(db);
      arm(next ?? PUBLISHER_LOOK_EVERY_MS);
    } catch (error) {
      logEvent("error", "publish-failed", { error: errorMessage(error) });
      arm(RETRY_MS);
    }
  }

  /** One look at a time; a look asked for during one runs right after it. */
  function look(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await once();
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  void look();
  return {
    /** A post changed somewhere: its schedule may have. */
    changed: () => void look(),
    /** The current look, for tests and for stopping cleanly. */
    settled: () => running ?? Promise.resolve(),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

import type { CacheTag } from "../../app/lib/cache-tags";
import { type Rendered, type StoredBody, storedBody } from "./body";

/**
 * The page cache's store: rendered public pages in memory, so a page is rendered (and the
 * database asked) once per change instead of once per visit. PGlite answers one query at a time,
 * so under load the embedded default depends on it.
 *
 * - Entries are tagged by what they show (app/route-policy.ts); a change drops the entries with
 *   its tags (./link.ts brings the database's notices, on every instance).
 * - A render that started before a change is not stored (the generation counter moves).
 * - Concurrent misses of one page share one render.
 * - Bounded by bytes, least recently used first out, as a clock (second chance) approximates
 *   it: a read only marks the entry, and the entry is moved behind the others when it comes up
 *   for eviction, as PostgreSQL's buffer pool does. Moving an entry on every read (a Map delete
 *   and set) cost each cache hit more than everything else this store does. A page starts
 *   unread: when every other page has been read since the last sweep, the page just stored is
 *   the one that leaves, so a crawler walking every post cannot push out the pages people read.
 */

/** Even with no change noticed, an entry is rendered afresh after this long. */
const MAX_AGE_MS = 10 * 60_000;

/**
 * Pages on probation (a search: app/route-policy.ts) are kept only when asked for a second
 * time within this long, and together take at most PROBATION_SHARE of the cache, oldest out
 * first: 5,000 random searches can neither push out the pages everyone reads nor grow the cache.
 */
export const PROBATION_WINDOW_MS = 10 * 60_000;
export const PROBATION_SHARE = 1 / 8;
/** How many probation keys are remembered as asked for once (about 1 MB at most). */
const SEEN_MAX = 10_000;

export type Entry = StoredBody & {
  key: string;
  status: number;
  headers: [string, string][];
  etag: string;
  tags: readonly CacheTag[];
  bytes: number;
  storedAt: number;
  probation: boolean;
  /** Read since it was stored or last given a second chance (the clock's reference bit). */
  read: boolean;
};

export type CacheStatus = "hit" | "miss" | "bypass";

export class PageCache {
  readonly maxBytes: number;
  private entries = new Map<string, Entry>();
  private byTag = new Map<CacheTag, Set<string>>();
  private inflight = new Map<string, Promise<Entry | null>>();
  private generation = 0;
  private bytes = 0;
  private probationBytes = 0;
  /** Probation keys asked for once, and when (oldest first). */
  private seen = new Map<string, number>();

  constructor({ maxBytes }: { maxBytes: number }) {
    this.maxBytes = maxBytes;
  }

  get size() {
    return this.entries.size;
  }

  get totalBytes() {
    return this.bytes;
  }

  get probationTotalBytes() {
    return this.probationBytes;
  }

  /**
   * Whether a probation page may be kept now: true when it was asked for before within the
   * window; otherwise it is remembered as asked for once.
   */
  private admits(key: string, now: number): boolean {
    const first = this.seen.get(key);
    if (first !== undefined && now - first <= PROBATION_WINDOW_MS) {
      this.seen.delete(key);
      return true;
    }
    this.seen.delete(key);
    this.seen.set(key, now);
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.keys().next().value!);
    return false;
  }

  get(key: string, now = Date.now()): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt > MAX_AGE_MS) {
      this.remove(key);
      return undefined;
    }
    entry.read = true;
    return entry;
  }

  /** Drops the entries carrying any of `tags`, or everything; renders in flight are not stored. */
  invalidate(tags: readonly CacheTag[] | "all") {
    this.generation++;
    if (tags === "all") {
      this.entries.clear();
      this.byTag.clear();
      this.bytes = 0;
      this.probationBytes = 0;
      return;
    }
    for (const tag of tags) {
      for (const key of this.byTag.get(tag) ?? []) this.remove(key);
    }
  }

  /**
   * The entry for `key`, rendering it with `render` when missing. Concurrent callers share one
   * render; null means the response could not be cached (each caller then renders its own).
   */
  async fill(
    key: string,
    render: () => Promise<Rendered | null>,
    { probation = false }: { probation?: boolean } = {},
  ): Promise<{ entry: Entry | null; rendered: boolean }> {
    const pending = this.inflight.get(key);
    if (pending) return { entry: await pending, rendered: false };
    const generation = this.generation;
    const keep = !probation || this.admits(key, Date.now());
    const work = render().then((made) => {
      if (!made) return null;
      const { body, ...rest } = made;
      const stored = storedBody(body);
      const bytes = stored.plain.length + stored.gzip.length + key.length * 2;
      const entry: Entry = {
        ...rest,
        ...stored,
        key,
        bytes,
        storedAt: Date.now(),
        probation,
        read: false,
      };
      // A change arrived while rendering: serve this response, but do not keep it.
      if (keep && generation === this.generation) this.store(entry);
      return entry;
    });
    this.inflight.set(key, work);
    try {
      return { entry: await work, rendered: true };
    } finally {
      this.inflight.delete(key);
    }
  }

  private store(entry: Entry) {
    // One page may take at most a quarter of the cache (a sitemap of 100,000 posts would not fit).
    if (entry.bytes > this.maxBytes / 4) return;
    this.remove(entry.key);
    this.entries.set(entry.key, entry);
    this.bytes += entry.bytes;
    if (entry.probation) this.probationBytes += entry.bytes;
    for (const tag of entry.tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(entry.key);
    }
    // Probation pages over their share go first; then, over the whole bound, any page.
    const probationMax = this.maxBytes * PROBATION_SHARE;
    this.evict(
      () => this.probationBytes > probationMax,
      (stored) => stored.probation,
    );
    this.evict(
      () => this.bytes > this.maxBytes,
      () => true,
    );
  }

  /**
   * Drops entries that `may` allow, oldest first, while `over()`. One read since it was
   * placed gets a second chance instead: it goes behind the others, unread, and leaves on its
   * turn unless read again. A Map iterates in insertion order, and reaches entries put behind
   * during the loop, so the loop ends: each entry is moved at most once.
   */
  private evict(over: () => boolean, may: (entry: Entry) => boolean) {
    for (const [key, entry] of this.entries) {
      if (!over()) return;
      if (!may(entry)) continue;
      if (entry.read) {
        entry.read = false;
        this.entries.delete(key);
        this.entries.set(key, entry);
      } else {
        this.remove(key);
      }
    }
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    if (entry.probation) this.probationBytes -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}

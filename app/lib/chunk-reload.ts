/** The sessionStorage key that marks a reload made because `what` failed to load on `path`. */
export function chunkReloadKey(what: string, path: string) {
  return `chunk-reload:${what}:${path}`;
}

/**
 * Imports a lazily loaded module (for React's `lazy`). When its chunk fails to load (mostly a
 * page from before a deploy asking for a file the new build no longer has), it logs the failure
 * and reloads the page once, as React Router does for route modules, and the fresh page asks
 * for the new chunk. A sessionStorage flag keyed by the path guards against a loop: it is
 * cleared once the chunk loads; if the chunk fails again while the flag is set (or storage is
 * unavailable, so no flag can be kept), it resolves to `fallback` instead of reloading.
 * On the server it only imports.
 */
export async function importOrReloadOnce<T>(
  what: string,
  load: () => Promise<T>,
  fallback: () => T,
): Promise<T> {
  if (typeof window === "undefined") return load();
  const key = chunkReloadKey(what, window.location.pathname);
  let loaded: T;
  try {
    loaded = await load();
  } catch (error) {
    if (markReload(key)) {
      console.error(
        `The ${what}'s code could not load; reloading the page once to fetch it again.`,
        error,
      );
      window.location.reload();
      // Keep the loading state until the page goes.
      return new Promise<T>(() => {});
    }
    console.error(
      `The ${what}'s code could not load, even after a reload; not reloading again.`,
      error,
    );
    return fallback();
  }
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // Storage unavailable: no flag was set either.
  }
  return loaded;
}

/** Sets the flag; false when it was already set or cannot be kept (then a reload could loop). */
function markReload(key: string): boolean {
  try {
    if (window.sessionStorage.getItem(key) !== null) return false;
    window.sessionStorage.setItem(key, String(Date.now()));
    return true;
  } catch {
    return false;
  }
}

// How the production server's process starts (`npm run serve`, the benchmarks and the tests that
// start it): V8 flags and C library settings, read by V8 and glibc when the process begins, so
// server.js cannot set them itself. Why each: docs/decisions/041-throughput-flags.md.
export const NODE_FLAGS = [
  // PGlite's WebAssembly stays on V8's baseline compiler: optimising one function of its
  // module alone takes about 570 MB of compiler memory, for little speed. V8's JavaScript heap
  // keeps its defaults: the smaller heaps cost uncached pages a third to a half of their speed.
  "--liftoff-only",
  // The global gc(), for one collection when the server comes to rest after a burst of work
  // (server/at-rest.ts): without it, the garbage of its start stayed resident until traffic came.
  "--expose-gc",
];

/** The environment the server starts with, beside its own configuration. */
export const NODE_ENV_SETTINGS = {
  // glibc's malloc keeps an arena per thread that ever allocated (libuv's pool, sharp's threads)
  // and seldom gives their pages back: two arenas held about 100 MB less at rest after a first
  // start, when the share cards were still drawn in a thread (decision 049 moved them to a
  // child process). Other C libraries ignore both settings.
  MALLOC_ARENA_MAX: "2",
  // Blocks from 128 KB up get pages of their own, given back when freed. glibc's default starts
  // there but raises the bar after each such block is freed, so the images' buffers end up in
  // the heap and stay resident (about 90 MB more at rest after a first start, measured with the
  // cards in a thread).
  MALLOC_MMAP_THRESHOLD_: "131072",
};

/** `NAME=value` words for a shell command line (package.json, Playwright's web servers). */
export const NODE_ENV_WORDS = Object.entries(NODE_ENV_SETTINGS).map(([k, v]) => `${k}=${v}`);

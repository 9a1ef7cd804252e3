// The V8 flags the production server runs with (`npm run serve`, the benchmarks and the tests
// that start it). Command-line only: V8 reads them when it sets up its heap and its WebAssembly
// engine, so server.js cannot set them itself. Why each: docs/decisions/010-memory.md.
export const NODE_FLAGS = [
  // PGlite's WebAssembly stays on V8's baseline compiler: optimising one function of its
  // module alone takes about 570 MB of compiler memory, for little speed (decision 010).
  "--liftoff-only",
  // A 4 MB young generation per half: the default grows to 32 MB under load.
  "--max-semi-space-size=4",
  // A smaller heap and less optimised code: about 90 MB less at the peak of uncached rendering,
  // for a millisecond or two more per uncached page.
  "--optimize-for-size",
];

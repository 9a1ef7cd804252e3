/**
 * sharp (libvips), loaded when an image is first processed rather than when the server starts:
 * its libraries and their start-up take about 22 MB that a site serving pages never needs.
 * Configured once, for every caller: the image pipeline and the share cards.
 */
import type Sharp from "sharp";

/**
 * libvips' own threads for one image, and its operation cache. The default is a thread per
 * core, so one upload took both of this machine's cores from the requests; one thread leaves
 * the others to the site (bench/images.mjs measures both). The cache keeps recent operations'
 * results for reuse, which one-off uploads never have: off, so a processed upload's memory is
 * given back at once.
 */
export const SHARP_THREADS = 1;

let loading: Promise<typeof Sharp> | undefined;

/** sharp, configured; the first call loads it. */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then(({ default: sharp }) => {
    sharp.concurrency(SHARP_THREADS);
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/**
 * sharp's settings, the same for every place that runs it: the image thread
 * (app/features/media/image-thread.server.ts) and the share cards' process
 * (app/features/cards/render-card.server.ts). Neither is the server's own thread, which never
 * loads sharp: its libraries and their start take about 22 MB and 60-90 ms of the thread that
 * loads them, and a site serving pages needs neither.
 */

/**
 * libvips' own threads for one image. The default is a thread per core, so one upload took both
 * of this machine's cores from the requests; one thread leaves the others to the site
 * (bench/images.mjs measures both). Its operation cache is switched off where sharp is loaded:
 * it keeps recent operations' results for reuse, which one-off uploads never have, so a
 * processed upload's memory is given back at once.
 */
export const SHARP_THREADS = 1;

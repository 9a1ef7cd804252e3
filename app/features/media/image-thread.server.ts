/**
 * The image pipeline's pixel work, in a worker thread: sharp (libvips) is loaded there, reads
 * headers there, and decodes and encodes there, so the server's own thread never runs it.
 * Loading sharp alone holds the thread that loads it for 60-90 ms (its modules and its addon's
 * start), and on the server's thread that held /healthz and cached pages past 100 ms at the
 * first upload after a start (tests/load/owner-actions.test.ts); the raw pixels of a decode (up
 * to 100 MB for an animation) are then the thread's, not the server heap's.
 *
 * One thread, started by the first job and stopped once it has had none for IMAGE_THREAD_IDLE_MS,
 * which gives its memory back (the libraries stay mapped: Node never unloads an addon). Jobs
 * come in turn (./processing.server.ts queues the decoding), but the thread answers each by its
 * id, so a header read may run beside a decode.
 *
 * The thread runs `serveInThread`'s and `pipelineInThread`'s own source, functions that need
 * nothing but Node and the sharp package they are handed the path of, so the same code runs in
 * the built server and in development (as app/features/profile/resume-check.server.ts does).
 *
 * Each upload is decoded once: its pixels are read into one raw buffer (upright, at the largest
 * width served), and every width and format is encoded from that buffer, which carries no
 * metadata. No withMetadata/keepExif anywhere: sharp writes no metadata unless told to.
 */

import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

import type Sharp from "sharp";
import type { Metadata, OutputInfo } from "sharp";

import { SHARP_THREADS } from "~/lib/sharp.server";

import { ANIMATION_MAX_PIXELS, IMAGE_THREAD_IDLE_MS, PHOTO_MAX_PIXELS } from "./uploads";
import type { MediaType } from "./uploads";

/** One file ready to store: its bytes, their type, and a photo's dimensions. */
export type ProcessedFile = {
  contentType: MediaType;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
};

/** What the checks need of an upload's header (read without decoding a pixel). */
export type ImageHeader = Pick<
  Metadata,
  "format" | "width" | "height" | "pages" | "orientation" | "delay" | "loop"
>;

/** What the thread is handed when it starts: sharp's path, and every setting it uses. */
type ThreadSettings = {
  sharpPath: string;
  threads: number;
  /**
   * How sharp reads an upload. `failOn: "warning"` (its default, named here because it
   * matters): a truncated or corrupt file is refused rather than decoded into grey. The pixel
   * limit is checked against the header first (./processing.server.ts), so this is a second guard.
   */
  decode: { failOn: "warning"; limitInputPixels: number };
  animationMaxPixels: number;
  /** Encoder settings: sharp's defaults, and mozjpeg for the JPEG (smaller at the same quality). */
  webp: { quality: number };
  jpeg: { quality: number; mozjpeg: boolean };
  /** What a transparent picture's JPEG shows through (JPEG has no transparency). */
  jpegBackground: string;
};

const SETTINGS: Omit<ThreadSettings, "sharpPath"> = {
  threads: SHARP_THREADS,
  decode: { failOn: "warning", limitInputPixels: PHOTO_MAX_PIXELS },
  animationMaxPixels: ANIMATION_MAX_PIXELS,
  webp: { quality: 80 },
  jpeg: { quality: 85, mozjpeg: true },
  jpegBackground: "#ffffff",
};

/**
 * The pipeline's helpers, run in the thread with its sharp (and, like the pipeline, handed
 * everything they use).
 */
function pixelsInThread(sharp: typeof Sharp, settings: ThreadSettings) {
  type Decoded = { data: Buffer; info: OutputInfo };

  /**
   * Pixels sharp wrote raw, read back: their layout, and each frame's height for an animation
   * (read as one, so a resize scales every frame). Raw output is never premultiplied, whatever
   * its info's `premultiplied` says of the steps that made it: passing that on doubles colours.
   */
  const pixelsOf = ({ data, info }: Decoded) => {
    const { width, height, channels } = info;
    const pageHeight = info.pageHeight && info.pageHeight < height ? info.pageHeight : undefined;
    return () =>
      pageHeight
        ? sharp(data, { raw: { width, height, channels, pageHeight }, animated: true })
        : sharp(data, { raw: { width, height, channels } });
  };

  /** A converted file with the dimensions its encoder reported (one frame's, for animations). */
  const fileOf = (contentType: MediaType, { data, info }: Decoded): ProcessedFile => ({
    contentType,
    bytes: data,
    width: info.width,
    height: info.pageHeight ?? info.height,
  });

  /** WebP at each of `widths` from decoded pixels, with an animation's timing. */
  const webpFiles = async (
    pixels: () => ReturnType<typeof sharp>,
    widths: number[],
    timing = {},
  ) => {
    const files: ProcessedFile[] = [];
    for (const width of widths) {
      const webp = pixels()
        .resize({ width })
        .webp({ ...settings.webp, ...timing });
      files.push(fileOf("image/webp", await webp.toBuffer({ resolveWithObject: true })));
    }
    return files;
  };

  return { pixelsOf, fileOf, webpFiles };
}

/**
 * The pipeline, run in the thread with its sharp: everything it uses comes through its
 * arguments, so that it refers to nothing of this module once bundled.
 */
function pipelineInThread(
  sharp: typeof Sharp,
  settings: ThreadSettings,
  { pixelsOf, fileOf, webpFiles }: ReturnType<typeof pixelsInThread>,
) {
  const { decode, webp: webpOptions, jpeg: jpegOptions, jpegBackground } = settings;

  return {
    /** The header only: dimensions and frame count, before a single pixel is decoded. */
    async header(bytes: Uint8Array): Promise<ImageHeader> {
      const { format, width, height, pages, orientation, delay, loop } = await sharp(bytes, {
        ...decode,
        limitInputPixels: false,
      }).metadata();
      return { format, width, height, pages, orientation, delay, loop };
    },

    /**
     * A photo's files: square WebP at each of `widths` and one JPEG at the largest. Decoded
     * once, turned upright (EXIF orientation) and cropped to a centred square at the largest.
     */
    async photo(bytes: Uint8Array, widths: number[]): Promise<ProcessedFile[]> {
      const largest = widths[widths.length - 1]!;
      const pixels = pixelsOf(
        await sharp(bytes, decode)
          .rotate()
          .resize(largest, largest, { fit: "cover" })
          .raw()
          .toBuffer({ resolveWithObject: true }),
      );
      const files: ProcessedFile[] = [];
      for (const size of widths) {
        const webp = await pixels().resize(size, size).webp(webpOptions).toBuffer();
        files.push({ contentType: "image/webp", bytes: webp, width: size, height: size });
      }
      const jpeg = await pixels().flatten({ background: jpegBackground }).jpeg(jpegOptions);
      files.push({
        contentType: "image/jpeg",
        bytes: await jpeg.toBuffer(),
        width: largest,
        height: largest,
      });
      return files;
    },

    /**
     * A still image's files: WebP at each of `widths`, and the upload's own format at the
     * largest (none for a WebP upload: its largest WebP is that). Decoded once (JPEG shrinks
     * while decoding), turned upright, at the largest width.
     */
    async still(bytes: Uint8Array, widths: number[], fallbackType: string) {
      const pixels = pixelsOf(
        await sharp(bytes, decode)
          .rotate()
          .resize({ width: widths[widths.length - 1]! })
          .raw()
          .toBuffer({ resolveWithObject: true }),
      );
      const files = await webpFiles(pixels, widths);
      const fallback =
        fallbackType === "image/jpeg"
          ? pixels().flatten({ background: jpegBackground }).jpeg(jpegOptions)
          : fallbackType === "image/png"
            ? pixels().png()
            : fallbackType === "image/gif"
              ? pixels().gif()
              : null;
      if (fallback) {
        const encoded = await fallback.toBuffer({ resolveWithObject: true });
        files.push(fileOf(fallbackType as MediaType, encoded));
      }
      return files;
    },

    /**
     * An animation's files: animated WebP at each of `widths`, and an animated GIF at the
     * largest for a GIF upload. Every frame is decoded once, at the largest width, into one raw
     * buffer (at most the animation pixel limit, checked from the header before this runs);
     * each file is encoded from it with the upload's frame delays and loop count, which raw
     * pixels do not carry.
     */
    async animated(
      bytes: Uint8Array,
      header: ImageHeader,
      widths: number[],
      fallbackType: string,
    ): Promise<ProcessedFile[]> {
      const pixels = pixelsOf(
        await sharp(bytes, {
          ...decode,
          animated: true,
          limitInputPixels: settings.animationMaxPixels,
        })
          .resize({ width: widths[widths.length - 1]! })
          .raw()
          .toBuffer({ resolveWithObject: true }),
      );
      const timing = {
        ...(header.delay ? { delay: header.delay } : {}),
        ...(header.loop !== undefined ? { loop: header.loop } : {}),
      };
      const files = await webpFiles(pixels, widths, timing);
      if (fallbackType === "image/gif") {
        const gif = await pixels().gif(timing).toBuffer({ resolveWithObject: true });
        files.push(fileOf("image/gif", gif));
      }
      return files;
    },
  };
}

type Pipeline = ReturnType<typeof pipelineInThread>;
type Job = { id: number; op: keyof Pipeline; args: unknown[] };
type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** The thread's program: load sharp once, then answer each job by its id. */
function serveInThread(
  load: (id: string) => unknown,
  pipeline: typeof pipelineInThread,
  pixels: typeof pixelsInThread,
) {
  const { parentPort, workerData } = load("node:worker_threads") as {
    parentPort: {
      on(event: "message", listener: (job: Job) => void): void;
      postMessage(answer: Answer): void;
    };
    workerData: ThreadSettings;
  };
  const sharp = load(workerData.sharpPath) as typeof Sharp;
  // libvips' own threads, and no operation cache (app/lib/sharp.server.ts says why).
  sharp.concurrency(workerData.threads);
  sharp.cache(false);
  const ops = pipeline(sharp, workerData, pixels(sharp, workerData));
  parentPort.on("message", ({ id, op, args }) => {
    (ops[op] as (...a: unknown[]) => Promise<unknown>)(...args).then(
      (value) => parentPort.postMessage({ id, ok: true, value }),
      (error: unknown) => parentPort.postMessage({ id, ok: false, error: String(error) }),
    );
  });
}

const THREAD_SOURCE = `"use strict";(${serveInThread.toString()})(require, ${pipelineInThread.toString()}, ${pixelsInThread.toString()});`;

export type ImageThread = {
  /** Runs one of the pipeline's steps in the thread (started if it is not running). */
  run<K extends keyof Pipeline>(
    op: K,
    ...args: Parameters<Pipeline[K]>
  ): Promise<Awaited<ReturnType<Pipeline[K]>>>;
  /** Stops the thread now; a later job starts another. */
  stop(): Promise<void>;
  /** Whether a thread is running (between its first job and its idle stop). */
  readonly running: boolean;
};

/**
 * The image thread, started on its first job and stopped after `idleMs` without one. A step
 * that throws rejects its own call with the error's text; a thread that fails or ends rejects
 * every call it had, and the next call starts a new one. `sharpPath` is the sharp package this
 * server resolves, unless told another (a test's recording wrapper around it).
 */
export function createImageThread({
  sharpPath,
  idleMs = IMAGE_THREAD_IDLE_MS,
}: { sharpPath?: string; idleMs?: number } = {}): ImageThread {
  let worker: Worker | null = null;
  let nextId = 0;
  let idle: NodeJS.Timeout | undefined;
  const pending = new Map<number, { resolve(value: unknown): void; reject(e: Error): void }>();

  /** Once no job is left, the thread stops after `idleMs` (a new job cancels that). */
  const whenIdle = () => {
    if (pending.size === 0) idle = setTimeout(() => void stop(), idleMs).unref();
  };

  /** A thread gone (failed, or ended): its jobs are rejected, and the next call starts one. */
  const gone = (thread: Worker, error: Error) => {
    if (worker !== thread) return;
    worker = null;
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  };

  function start() {
    const thread = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: {
        ...SETTINGS,
        // Resolved from here: the server build leaves sharp in node_modules.
        sharpPath: (sharpPath ??= createRequire(import.meta.url).resolve("sharp")),
      } satisfies ThreadSettings,
    });
    // It never keeps the process alive by itself: the server's listener does, and a job waits.
    thread.unref();
    thread.on("message", (answer: Answer) => {
      const job = pending.get(answer.id);
      if (!job) return;
      pending.delete(answer.id);
      if (answer.ok) job.resolve(answer.value);
      else job.reject(new Error(answer.error));
      whenIdle();
    });
    thread.on("error", (error) => {
      console.error(JSON.stringify({ event: "image_thread_failed", error: String(error) }));
      gone(thread, error);
    });
    thread.on("exit", (code) => gone(thread, new Error(`the image thread ended (code ${code})`)));
    return thread;
  }

  async function stop() {
    clearTimeout(idle);
    const thread = worker;
    if (!thread) return;
    gone(thread, new Error("the image thread was stopped"));
    await thread.terminate();
  }

  function run<K extends keyof Pipeline>(op: K, ...args: Parameters<Pipeline[K]>) {
    clearTimeout(idle);
    const thread = (worker ??= start());
    const id = nextId++;
    return new Promise<Awaited<ReturnType<Pipeline[K]>>>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        thread.postMessage({ id, op, args } satisfies Job);
      } catch (error) {
        // Not sent (arguments that cannot be copied): this job only, and the idle stop as usual.
        pending.delete(id);
        reject(error as Error);
        whenIdle();
      }
    });
  }

  return {
    run,
    stop,
    get running() {
      return worker !== null;
    },
  };
}

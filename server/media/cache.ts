import { randomBytes } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

import { errorMessage, logEvent } from "../../app/lib/log.server";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-files";

/** What the database says of a stored file. */
export type MediaInfo = { hash: string; contentType: string; size: number };

/** Where the files come from: the database, the one source of truth. */
export type MediaSource = {
  /** The file with its bytes, or undefined when no row has this hash. */
  read(hash: string): Promise<{ contentType: string; bytes: Uint8Array } | undefined>;
  /** Which of `hashes` are stored (without their bytes). */
  infos(hashes: readonly string[]): Promise<MediaInfo[]>;
};

/**
 * A file ready to send: an open handle on its local copy, or (a miss, a file larger than the
 * bound, a disk that takes no copy) the bytes this instance just read from the database.
 */
export type Opened =
  | { info: MediaInfo; handle: FileHandle; bytes?: undefined }
  | { info: MediaInfo; bytes: Uint8Array; handle?: undefined };

type Loaded = { info: MediaInfo; bytes: Uint8Array };
type Flight = { cancelled: boolean; result: Promise<Loaded | null> };

const COPY_NAME = /^[0-9a-f]{64}$/;
/** Hashes per query when local copies are checked against the database. */
const VERIFY_BATCH = 500;

/**
 * Local copies of the `media` table's files under `dir`, read through: a file asked for is read
 * from the database once (concurrent requests for it share that read), then kept on disk,
 * written under a temporary name and renamed, so no half-written file ever has a copy's name.
 * At most `maxBytes` of copies are kept; past it the least recently used go. A copy is dropped
 * when its row is deleted (`drop`, on the database's notice), and all are checked again when
 * notices may have been missed (`verify`) and at start.
 */
export class MediaCache {
  /** Copies on disk, least recently used first (a Map keeps insertion order). */
  private copies = new Map<string, MediaInfo>();
  /** Bytes of the copies, and of those being written. */
  private bytes = 0;
  private flights = new Map<string, Flight>();
  private writeFailed = false;

  constructor(
    private readonly options: {
      dir: string;
      maxBytes: number;
      source: MediaSource;
      /** Where problems are reported (the structured log unless said otherwise). */
      log?: (event: string, fields: Record<string, unknown>) => void;
    },
  ) {}

  /** How many copies there are, and their bytes (tests, diagnosis). */
  get size() {
    return { files: this.copies.size, bytes: this.bytes };
  }

  private pathOf(hash: string) {
    return path.join(this.options.dir, hash);
  }

  private log(event: string, fields: Record<string, unknown>) {
    if (this.options.log) this.options.log(event, fields);
    else logEvent("error", event, fields);
  }

  /**
   * Makes the folder (private), removes what an interrupted write left, and keeps only the
   * copies whose rows still exist with the same size: a restore may have removed rows.
   */
  async start() {
    const { dir } = this.options;
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const found: { info: MediaInfo; at: number }[] = [];
    for (const name of await readdir(dir)) {
      const at = path.join(dir, name);
      if (!COPY_NAME.test(name)) {
        await rm(at, { force: true, recursive: true });
        continue;
      }
      const stats = await stat(at);
      found.push({ info: { hash: name, contentType: "", size: stats.size }, at: stats.mtimeMs });
    }
    found.sort((a, b) => a.at - b.at);
    for (const { info } of found) {
      this.copies.set(info.hash, info);
      this.bytes += info.size;
    }
    await this.verify();
    this.makeRoom(0);
  }

  /**
   * Opens a file for sending, or null when no row has this hash. A copy in hand is opened; any
   * other is read from the database, once however many ask at the same time.
   */
  async open(hash: string): Promise<Opened | null> {
    const copy = this.copies.get(hash);
    if (copy) {
      try {
        const handle = await open(this.pathOf(hash), "r");
        if (this.copies.get(hash) === copy) {
          this.copies.delete(hash);
          this.copies.set(hash, copy);
          return { info: copy, handle };
        }
        // Dropped while it was being opened: ask the database again.
        await handle.close();
      } catch (error) {
        // Gone from the disk (removed by hand): forget it and read it again.
        if (this.copies.get(hash) === copy) void this.forget(hash);
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
          this.log("media_copy_unreadable", { hash, error: errorMessage(error) });
        }
      }
    }
    const loaded = await this.load(hash);
    return loaded ? { info: loaded.info, bytes: loaded.bytes } : null;
  }

  private load(hash: string): Promise<Loaded | null> {
    const running = this.flights.get(hash);
    if (running) return running.result;
    const flight: Flight = {
      cancelled: false,
      result: this.options.source.read(hash).then((row) =>
        row
          ? {
              info: { hash, contentType: row.contentType, size: row.bytes.byteLength },
              bytes: row.bytes,
            }
          : null,
      ),
    };
    this.flights.set(hash, flight);
    // Requests arriving while the copy is written share the bytes already read.
    void flight.result
      .then((loaded) => (loaded && !flight.cancelled ? this.keep(loaded, flight) : undefined))
      .catch(() => {
        // The read's error reaches the requests that wait for it.
      })
      .finally(() => {
        if (this.flights.get(hash) === flight) this.flights.delete(hash);
      });
    return flight.result;
  }

  /** Writes a copy: a temporary name, then a rename; nothing is left of a failed write. */
  private async keep({ info, bytes }: Loaded, flight: Flight) {
    if (info.size > this.options.maxBytes) return;
    this.makeRoom(info.size);
    this.bytes += info.size;
    const final = this.pathOf(info.hash);
    const temporary = `${final}.${randomBytes(6).toString("hex")}.tmp`;
    let kept = false;
    try {
      const handle = await open(temporary, "wx", PRIVATE_FILE_MODE);
      try {
        await handle.writeFile(bytes);
        // On disk before it has the copy's name: a crash never leaves a short copy.
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (flight.cancelled) return;
      await rename(temporary, final);
      if (flight.cancelled) {
        await rm(final, { force: true });
        return;
      }
      this.copies.set(info.hash, { ...info });
      kept = true;
      this.writeFailed = false;
    } catch (error) {
      if (!this.writeFailed) {
        this.writeFailed = true;
        // Once (until a copy is written again): the files are still served, from the bytes read.
        this.log("media_copy_not_written", { dir: this.options.dir, error: errorMessage(error) });
      }
    } finally {
      if (!kept) {
        this.bytes -= info.size;
        await rm(temporary, { force: true }).catch(() => {});
      }
    }
  }

  /** Removes the least recently used copies until `incoming` more bytes fit. */
  private makeRoom(incoming: number) {
    for (const hash of this.copies.keys()) {
      if (this.bytes + incoming <= this.options.maxBytes) return;
      void this.forget(hash, true);
    }
  }

  /** Forgets a copy; with `remove`, deletes its file too (resolves once it is gone). */
  private async forget(hash: string, remove = false) {
    const copy = this.copies.get(hash);
    if (!copy) return;
    this.copies.delete(hash);
    this.bytes -= copy.size;
    // An open handle keeps its bytes readable: a request sending this file finishes.
    if (remove) await rm(this.pathOf(hash), { force: true }).catch(() => {});
  }

  /** Its row was deleted: the copy goes, and a read under way is not kept (nor shared). */
  drop(hash: string) {
    const flight = this.flights.get(hash);
    if (flight) {
      flight.cancelled = true;
      this.flights.delete(hash);
    }
    return this.forget(hash, true);
  }

  /**
   * Notices may have been missed: reads under way are not kept, and every copy whose row is
   * gone (or differs) is dropped. When the database cannot say, every copy goes.
   */
  async verify() {
    for (const flight of this.flights.values()) flight.cancelled = true;
    this.flights.clear();
    const hashes = [...this.copies.keys()];
    try {
      const stored = new Map<string, MediaInfo>();
      for (let at = 0; at < hashes.length; at += VERIFY_BATCH) {
        for (const info of await this.options.source.infos(hashes.slice(at, at + VERIFY_BATCH))) {
          stored.set(info.hash, info);
        }
      }
      const removals = [];
      for (const hash of hashes) {
        const row = stored.get(hash);
        const copy = this.copies.get(hash);
        if (!copy) continue;
        if (!row || row.size !== copy.size) removals.push(this.forget(hash, true));
        else copy.contentType = row.contentType;
      }
      await Promise.all(removals);
    } catch (error) {
      this.log("media_copies_unverified", { dropped: hashes.length, error: errorMessage(error) });
      await Promise.all(hashes.map((hash) => this.forget(hash, true)));
    }
  }
}

import net from "node:net";
import { readFileSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { UPLOAD_LIMITS } from "../../app/features/media";
import { CONNECTION_LIMITS } from "../../app/lib/limits";
import { RESUME_IMPORT_MAX_BYTES } from "../../app/features/profile/profile";
import {
  freshPostgres,
  percentile,
  sleep,
  TEST_DATABASE_URL,
  type PostgresDatabase,
} from "./harness";
import {
  animatedGif,
  largePhoto,
  pdfOfSize,
  resumeNested,
  resumeWithEntries,
} from "./owner-inputs";
import {
  cvForm,
  cvOf,
  download,
  messageOf,
  OwnerSite,
  pgliteStorage,
  postgresStorage,
  report,
  type ActionResult,
  type Cv,
  type Download,
  type Storage,
} from "./owner-site";

/**
 * Heavy owner actions never stall the site (docs/product.md#robustness): while the owner
 * uploads a 10 MB CV and anonymous clients fetch it by the hundred, while sockets ask for it and
 * never read, while a pathological JSON Resume is imported and a 50-frame animation or two
 * large photos are uploaded, /healthz and a page from the page cache keep answering within
 * 100 ms (p99) with no error, and the server's memory stays under 512 MB (./owner-site.ts,
 * ./probe.ts). Each action also gets the answer it should: the CV byte for byte, a clear and
 * small 4xx for an import it refuses, non-reading sockets closed.
 *
 * The inputs are the ones a review measured, made in code (./owner-inputs.ts). Each action has a
 * deadline: one the server does not meet fails, and the next action gets a fresh server, so a
 * server that cannot cope fails in minutes rather than hanging the run.
 *
 * The CV's actions run on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL too (each
 * driver reads the file its own way); the import and the images do not depend on the driver.
 */

/** The CV a review measured: 9.9 MB, just under the upload limit. */
const CV_BYTES = 9_900_000;
/** Clients fetching the CV at once: a few rounds of 10, then 200 together. */
const SMALL_CROWD = 10;
const SMALL_ROUNDS = 3;
const LARGE_CROWD = 200;
/** Sockets that ask for the CV and never read. */
const NON_READING = 20;
/**
 * The server's send timeout: a response that makes no progress for this long loses its socket,
 * looked at five times a period (server/media/handler.ts); the margin covers that and the
 * kernel's buffers filling first.
 */
const SEND_TIMEOUT_MS = CONNECTION_LIMITS.sendStallMs;
const SEND_TIMEOUT_MARGIN_MS = 0.2 * SEND_TIMEOUT_MS + 10_000;
/** The JSON Resumes a review measured. */
const RESUME_ENTRIES = 100_000;
const RESUME_BYTES = 961_000;
const RESUME_DEPTH = 300_000;
/** How long an import may take to be refused (a review saw 88.9 s). */
const IMPORT_DEADLINE_MS = 15_000;
/** How long the clients of one CV step may take in all. */
const FETCH_DEADLINE_MS = 25_000;
/** A refusal is "small" under this: a message and at most a handful of problems. */
const SMALL_BODY_BYTES = 16 * 1024;
/** The animation a review measured: 50 frames of 1000 × 1000 in about 86 KB. */
const GIF = { frames: 50, width: 1000, height: 1000 };
/** Two photos from a camera, uploaded at once. */
const PHOTO = { width: 4000, height: 3000 };

const PORTS = { pglite: 4701, pgliteImports: 4702, postgres: 4703 };

type Inputs = { cv: Cv; gif: Buffer; photos: Buffer[] };

let inputs: Inputs;

beforeAll(async () => {
  const [gif, ...photos] = await Promise.all([
    animatedGif(GIF.frames, GIF.width, GIF.height),
    largePhoto(PHOTO.width, PHOTO.height, 40),
    largePhoto(PHOTO.width, PHOTO.height, 200),
  ]);
  inputs = { cv: cvOf(pdfOfSize(CV_BYTES)), gif, photos };
  const kb = (n: number) => `${(n / 1000).toFixed(0)} KB`;
  console.log(
    `inputs: CV ${kb(inputs.cv.bytes.length)}; GIF ` +
      `${kb(gif.length)} (${GIF.frames} frames of ${GIF.width}×${GIF.height}); photos ` +
      `${photos.map((p) => kb(p.length)).join(" and ")} (${PHOTO.width}×${PHOTO.height})`,
  );
  // The inputs are what they claim, and within what the site accepts (else it refuses them
  // by size alone and the test proves nothing).
  expect(inputs.cv.bytes.length).toBeLessThanOrEqual(UPLOAD_LIMITS.cv);
  expect(gif.length).toBeLessThan(100_000);
  for (const photo of [gif, ...photos]) {
    expect(photo.length).toBeLessThanOrEqual(UPLOAD_LIMITS.image);
  }
}, 60_000);

/** The 10 MB CV uploaded by the owner: answered "CV uploaded." while the site keeps answering. */
async function uploadCv(site: OwnerSite): Promise<ActionResult> {
  const answer = await site.post(
    "/admin/profile/cv.data",
    cvForm(inputs.cv),
    AbortSignal.timeout(60_000),
  );
  const message = messageOf(answer.text);
  const problems: string[] = [];
  if (answer.status !== 200) problems.push(`the upload answered ${answer.status}: ${message}`);
  if (!(await site.has(inputs.cv))) problems.push(`${inputs.cv.url} is not stored`);
  return { outcome: `${answer.status} ${message}`, problems };
}

/**
 * `clients` GETs of the CV at once, each on its own connection, `rounds` times; every answer must
 * be the whole file (compared by hash in crowds of at most SMALL_CROWD, by length beyond: hashing
 * 2 GB would take the test's own CPU from the server it measures).
 */
async function fetchCv(site: OwnerSite, clients: number, rounds: number, deadlineMs: number) {
  const signal = AbortSignal.timeout(deadlineMs);
  const hash = clients <= SMALL_CROWD;
  const isWhole = (a: Download) =>
    a.status === 200 &&
    a.bytes === inputs.cv.bytes.length &&
    (!hash || a.sha256 === inputs.cv.hash);
  const problems: string[] = [];
  const times: number[] = [];
  let whole = 0;
  for (let round = 0; round < rounds && !signal.aborted; round++) {
    const answers = await Promise.all(
      Array.from({ length: clients }, () => download(`${site.base}${inputs.cv.url}`, signal, hash)),
    );
    for (const answer of answers) times.push(answer.ms);
    const broken = answers.filter((a) => !isWhole(a));
    whole += answers.length - broken.length;
    if (broken.length > 0) {
      const first = broken[0]!;
      problems.push(
        `round ${round + 1}: ${broken.length} of ${clients} not whole (first: ${first.status}, ` +
          `${first.bytes} bytes${first.error ? `, ${first.error}` : ""})`,
      );
    }
  }
  const gaveUp = signal.aborted;
  if (gaveUp) problems.push(`not done within ${deadlineMs / 1000} s`);
  times.sort((a, b) => a - b);
  const at = (p: number) => `${(percentile(times, p) / 1000).toFixed(1)} s`;
  return {
    outcome: `${whole}/${clients * rounds} whole; each took p50 ${at(50)}, max ${at(100)}`,
    problems,
    gaveUp,
  };
}

/** One row of /proc/net/tcp: the connection's state (01 = established) and its receive queue. */
type TcpEntry = { state: string; rxQueue: number };

/** The IPv4 TCP connections of this machine, keyed "localPort>remotePort". */
function tcpTable(): Map<string, TcpEntry> {
  const entries = new Map<string, TcpEntry>();
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5) continue;
    const port = (address: string) => parseInt(address.split(":")[1]!, 16);
    const rxQueue = parseInt(fields[4]!.split(":")[1]!, 16);
    entries.set(`${port(fields[1]!)}>${port(fields[2]!)}`, { state: fields[3]!, rxQueue });
  }
  return entries;
}

/**
 * Sockets that ask for the CV and never read: the server must close each (its end of the
 * connection leaves ESTABLISHED, as the kernel's table shows, whether or not its FIN can reach a
 * client whose window is shut) within the send timeout.
 */
async function nonReadingSockets(site: OwnerSite): Promise<ActionResult> {
  const port = site.port;
  const sockets = await Promise.all(
    Array.from(
      { length: NON_READING },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
          socket.once("error", reject);
        }),
    ),
  );
  const opened = performance.now();
  const closedAfter = new Map<net.Socket, number>();
  const seen = new Set<net.Socket>();
  let buffered = 0;
  try {
    for (const socket of sockets) {
      socket.on("error", () => {});
      socket.pause();
      socket.write(`GET ${inputs.cv.url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    }
    const bound = SEND_TIMEOUT_MS + SEND_TIMEOUT_MARGIN_MS;
    while (closedAfter.size < NON_READING && performance.now() - opened < bound) {
      const connections = tcpTable();
      buffered = 0;
      for (const socket of sockets) {
        buffered += connections.get(`${socket.localPort}>${port}`)?.rxQueue ?? 0;
        if (closedAfter.has(socket)) continue;
        const serverSide = connections.get(`${port}>${socket.localPort}`);
        if (serverSide?.state === "01") seen.add(socket);
        else if (seen.has(socket)) closedAfter.set(socket, performance.now() - opened);
      }
      await sleep(250);
    }
  } finally {
    for (const socket of sockets) socket.destroy();
  }
  const last = Math.max(0, ...closedAfter.values());
  const problems =
    closedAfter.size < NON_READING
      ? [
          `${NON_READING - closedAfter.size} of ${NON_READING} sockets still open after ` +
            `${(SEND_TIMEOUT_MS + SEND_TIMEOUT_MARGIN_MS) / 1000} s`,
        ]
      : [];
  return {
    outcome:
      `${closedAfter.size}/${NON_READING} closed by the server` +
      `${closedAfter.size ? `, the last after ${(last / 1000).toFixed(1)} s` : ""}; ` +
      `${(buffered / 1e6).toFixed(1)} MB waiting in the clients' buffers`,
    problems,
  };
}

/**
 * A JSON Resume the import must refuse: a 4xx at once, with a short answer (not every problem of
 * 100,000 entries), and a message.
 */
async function refusedImport(
  site: OwnerSite,
  body: FormData | URLSearchParams,
  deadlineMs: number,
): Promise<ActionResult> {
  const signal = AbortSignal.timeout(deadlineMs);
  let answer: { status: number; text: string };
  try {
    answer = await site.post("/admin/profile/resume.data", body, signal);
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${deadlineMs / 1000} s` : String(error);
    return { outcome: reason, problems: [reason], gaveUp: true };
  }
  const size = Buffer.byteLength(answer.text);
  const message = messageOf(answer.text) ?? answer.text.slice(0, 80);
  const problems: string[] = [];
  if (answer.status < 400 || answer.status > 499)
    problems.push(`answered ${answer.status}, not 4xx`);
  if (size > SMALL_BODY_BYTES) problems.push(`an answer of ${size} bytes (> ${SMALL_BODY_BYTES})`);
  return {
    outcome: `${answer.status}, ${(size / 1000).toFixed(1)} KB: ${message.slice(0, 60)}`,
    problems,
  };
}

function resumeFile(text: string) {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("file", new Blob([text], { type: "application/json" }), "resume.json");
  return form;
}

/** The `error` of the image API's JSON answer, or the start of an answer that is not JSON. */
function errorOf(text: string): string {
  try {
    return (JSON.parse(text) as { error?: string }).error ?? "";
  } catch {
    return text.slice(0, 80);
  }
}

/** POST /api/images with one file; the API answers JSON { ok, image } or { ok, error }. */
async function postImage(site: OwnerSite, bytes: Buffer, type: string, signal: AbortSignal) {
  const form = new FormData();
  form.set("image", new Blob([new Uint8Array(bytes)], { type }), `upload.${type.split("/")[1]}`);
  const answer = await site.post("/api/images", form, signal);
  return {
    status: answer.status,
    error: errorOf(answer.text),
    size: Buffer.byteLength(answer.text),
  };
}

async function imageAction(
  site: OwnerSite,
  files: Buffer[],
  type: string,
  deadlineMs: number,
  accept: (status: number) => boolean,
): Promise<ActionResult> {
  const signal = AbortSignal.timeout(deadlineMs);
  let answers: Awaited<ReturnType<typeof postImage>>[];
  try {
    answers = await Promise.all(files.map((file) => postImage(site, file, type, signal)));
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${deadlineMs / 1000} s` : String(error);
    return { outcome: reason, problems: [reason], gaveUp: true };
  }
  const problems = answers
    .filter((a) => !accept(a.status) || a.size > SMALL_BODY_BYTES)
    .map((a) => `answered ${a.status} (${a.size} bytes): ${a.error}`);
  return {
    outcome: answers
      .map((a) => `${a.status}${a.error ? ` ${a.error.slice(0, 50)}` : ""}`)
      .join("; "),
    problems,
  };
}

/** The CV's actions on one database: upload, 10 clients, 200 clients, 20 sockets that never read. */
function cvActions(storage: () => Storage, port: number) {
  let site: OwnerSite;

  beforeAll(() => {
    site = new OwnerSite(storage(), port);
  });

  afterAll(async () => {
    if (site.rows.length) report(`CV, ${site.storage.name}`, site.rows);
    await site.close();
  });

  it("1. the owner uploads a 9.9 MB CV (PDF)", async () => {
    await site.measure(`upload a ${CV_BYTES / 1e6} MB CV`, () => uploadCv(site));
  }, 120_000);

  it(`1. ${SMALL_CROWD} clients fetch the CV at once, ${SMALL_ROUNDS} rounds`, async () => {
    await site.ready();
    await site.ensureCv(inputs.cv);
    await site.measure(`GET the CV, ${SMALL_CROWD} at once × ${SMALL_ROUNDS}`, () =>
      fetchCv(site, SMALL_CROWD, SMALL_ROUNDS, FETCH_DEADLINE_MS),
    );
  }, 180_000);

  it(`1. ${LARGE_CROWD} clients fetch the CV at once`, async () => {
    await site.ready();
    await site.ensureCv(inputs.cv);
    await site.measure(`GET the CV, ${LARGE_CROWD} at once`, () =>
      fetchCv(site, LARGE_CROWD, 1, FETCH_DEADLINE_MS),
    );
  }, 180_000);

  it(`2. ${NON_READING} sockets ask for the CV and never read: all closed by the server`, async () => {
    await site.ready();
    await site.ensureCv(inputs.cv);
    await site.measure(`${NON_READING} sockets that never read`, () => nonReadingSockets(site));
  }, 180_000);
}

describe("owner actions: the CV (PGlite, page cache on)", () => {
  cvActions(() => pgliteStorage, PORTS.pglite);
});

if (TEST_DATABASE_URL) {
  describe("owner actions: the CV (PostgreSQL, page cache on)", () => {
    let database: PostgresDatabase;
    beforeAll(async () => {
      database = await freshPostgres("load_owner");
    });
    afterAll(async () => {
      await database?.drop();
    });
    cvActions(() => postgresStorage(database.url), PORTS.postgres);
  });
} else {
  console.log("Skipped: the CV's owner actions on PostgreSQL; TEST_DATABASE_URL is not set");
}

describe("owner actions: imports and images (PGlite, page cache on)", () => {
  let site: OwnerSite;

  beforeAll(() => {
    site = new OwnerSite(pgliteStorage, PORTS.pgliteImports);
  });

  afterAll(async () => {
    if (site.rows.length) report("imports and images, PGlite", site.rows);
    await site.close();
  });

  /** The review's résumés, built on the site's own export (valid, so every check runs). */
  async function resumes() {
    await site.ready();
    const exported = await (await fetch(`${site.base}/resume.json`)).text();
    const many = resumeWithEntries(exported, RESUME_ENTRIES, RESUME_BYTES);
    const nested = resumeNested(exported, RESUME_DEPTH);
    expect(many.length).toBeGreaterThan(0.95 * RESUME_BYTES);
    expect(many.length).toBeLessThanOrEqual(RESUME_IMPORT_MAX_BYTES);
    expect((JSON.parse(many) as { work: unknown[] }).work).toHaveLength(RESUME_ENTRIES);
    expect(nested.length).toBeLessThanOrEqual(RESUME_IMPORT_MAX_BYTES);
    return { many, nested };
  }

  it(`3. a ${RESUME_BYTES / 1000} KB JSON Resume with ${RESUME_ENTRIES} entries: a clear, small 4xx`, async () => {
    const { many } = await resumes();
    await site.measure(
      `import ${(many.length / 1000).toFixed(0)} KB, ${RESUME_ENTRIES} entries`,
      () => refusedImport(site, resumeFile(many), IMPORT_DEADLINE_MS),
    );
  }, 120_000);

  it("3. the same document sent to the import's confirm step: a clear, small 4xx", async () => {
    const { many } = await resumes();
    await site.measure(`confirm it (form-encoded)`, () =>
      refusedImport(
        site,
        new URLSearchParams({ intent: "confirm", document: many }),
        IMPORT_DEADLINE_MS,
      ),
    );
  }, 120_000);

  it(`3. a résumé nested ${RESUME_DEPTH} deep: a clear, small 4xx`, async () => {
    const { nested } = await resumes();
    await site.measure(
      `import ${(nested.length / 1000).toFixed(0)} KB, nested ${RESUME_DEPTH} deep`,
      () => refusedImport(site, resumeFile(nested), IMPORT_DEADLINE_MS),
    );
  }, 120_000);

  it(`4. an animated GIF of ${GIF.frames} frames of ${GIF.width}×${GIF.height} as a post image`, async () => {
    // Stored (201) or refused with the animation limit's message (4xx): never a 5xx or a stall.
    await site.measure(`post image: GIF, ${GIF.frames} frames`, () =>
      imageAction(
        site,
        [inputs.gif],
        "image/gif",
        40_000,
        (s) => s === 201 || (s >= 400 && s < 500),
      ),
    );
  }, 120_000);

  it(`5. two ${PHOTO.width}×${PHOTO.height} photos uploaded at once: both stored`, async () => {
    await site.measure("post images: 2 photos at once", () =>
      imageAction(site, inputs.photos, "image/jpeg", 60_000, (s) => s === 201),
    );
  }, 120_000);
});

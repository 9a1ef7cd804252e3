/**
 * The whole-file steps of reading an export, a WXR's XML parse and a zip's unpacking, in a
 * worker thread, so that readers' requests keep being answered while an upload's dry run or
 * an import job reads a large export (docs/decisions/046-exports-read-in-a-worker-thread.md).
 * What the thread finds comes back in parts (EXPORT_THREAD_LIMITS), each one message: one
 * message of the whole result would itself be one long step on the event loop, reading it.
 *
 * The thread runs `readInWorker`'s own source, a function that needs nothing but Node and the
 * two libraries' packages (resolved from here), as the JSON Resume check does (decision 029):
 * the server is one bundle with no separate file a thread could load.
 */

import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type * as Fflate from "fflate";
import type * as FastXmlParser from "fast-xml-parser";

import type { ExportFile } from "./read-export.server";

export const EXPORT_THREAD_LIMITS = {
  /** WXR items sent back in one message. */
  itemsPerMessage: 50,
  /** A zip's files sent back in one message (their bytes are moved, not copied). */
  filesPerMessage: 50,
} as const;

/** What the XML parser is given, besides the tags it always reads as lists. */
export type XmlOptions = {
  ignoreAttributes: boolean;
  parseTagValue: boolean;
  processEntities: boolean;
};

type Task =
  | { kind: "xml"; text: string; options: XmlOptions; arrayTags: string[]; listPath: string[] }
  | { kind: "zip"; bytes: Uint8Array };

type WorkerData = { task: Task; libraries: { xml: string; zip: string }; perMessage: number };

/** The thread's messages: parts, then the end (with the document less its list) or an error. */
type Message =
  | { kind: "part"; values: unknown[] }
  | { kind: "end"; document?: unknown }
  | { kind: "error"; message: string };

/**
 * Runs in the thread, from its source text: everything it uses comes through `load` (the
 * thread's `require`), so that it refers to nothing of this module once bundled.
 */
function readInWorker(load: (id: string) => unknown) {
  const { parentPort, workerData } = load("node:worker_threads") as {
    parentPort: { postMessage(message: Message, transfer?: ArrayBuffer[]): void };
    workerData: WorkerData;
  };
  const { task, libraries, perMessage } = workerData;
  const sendInParts = (values: unknown[], transferOf: (value: unknown) => ArrayBuffer[]) => {
    for (let start = 0; start < values.length; start += perMessage) {
      const part = values.slice(start, start + perMessage);
      parentPort.postMessage({ kind: "part", values: part }, [
        ...new Set(part.flatMap(transferOf)),
      ]);
    }
  };
  try {
    if (task.kind === "xml") {
      const { XMLParser } = load(libraries.xml) as typeof FastXmlParser;
      const arrayTags = new Set(task.arrayTags);
      const parser = new XMLParser({ ...task.options, isArray: (name) => arrayTags.has(name) });
      const document = parser.parse(task.text) as Record<string, unknown>;
      // The list is sent in parts and taken out of the document, which is sent at the end.
      let holder: Record<string, unknown> | undefined = document;
      for (const key of task.listPath.slice(0, -1)) {
        const next: unknown = holder?.[key];
        holder = typeof next === "object" && next !== null ? (next as typeof holder) : undefined;
      }
      const last = task.listPath[task.listPath.length - 1]!;
      const list = holder?.[last];
      if (holder && Array.isArray(list)) {
        delete holder[last];
        sendInParts(list, () => []);
      }
      parentPort.postMessage({ kind: "end", document });
      return;
    }
    const { unzipSync } = load(libraries.zip) as typeof Fflate;
    const entries = unzipSync(task.bytes, {
      filter: (file) => !file.name.endsWith("/") && !file.name.split("/").includes("__MACOSX"),
    });
    const files = Object.entries(entries).map(([name, bytes]) => ({ name, bytes }));
    sendInParts(files, (file) => [(file as { bytes: Uint8Array }).bytes.buffer as ArrayBuffer]);
    parentPort.postMessage({ kind: "end" });
  } catch (error) {
    parentPort.postMessage({ kind: "error", message: (error as Error).message });
  }
}

const WORKER_SOURCE = `"use strict";(${readInWorker.toString()})(require);`;

let libraries: WorkerData["libraries"] | undefined;
/** Resolved from here: the server build leaves both libraries in node_modules. */
const librariesOf = () => {
  if (libraries) return libraries;
  const require = createRequire(import.meta.url);
  return (libraries = { xml: require.resolve("fast-xml-parser"), zip: require.resolve("fflate") });
};

function runInWorker(task: Task): Promise<{ values: unknown[]; document?: unknown }> {
  const workerData: WorkerData = {
    task,
    libraries: librariesOf(),
    perMessage:
      task.kind === "xml"
        ? EXPORT_THREAD_LIMITS.itemsPerMessage
        : EXPORT_THREAD_LIMITS.filesPerMessage,
  };
  return new Promise((resolve, reject) => {
    const values: unknown[] = [];
    let settled = false;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      done();
      void worker.terminate();
    };
    worker.on("message", (message: Message) => {
      if (message.kind === "part") for (const value of message.values) values.push(value);
      else if (message.kind === "end")
        settle(() => resolve({ values, document: message.document }));
      else settle(() => reject(new Error(message.message)));
    });
    worker.once("error", (error) => settle(() => reject(error)));
    worker.once("exit", (code) =>
      settle(() => reject(new Error(`The export could not be read (its thread ended: ${code}).`))),
    );
  });
}

/**
 * An XML document parsed in a worker thread, as fast-xml-parser reads it with `options` and
 * `arrayTags` as lists; the list at `listPath` (a WXR's `rss.channel.item`) comes back in parts
 * and is put back in its place.
 */
export async function parseXmlOffThread(
  text: string,
  options: XmlOptions,
  arrayTags: string[],
  listPath: string[],
): Promise<unknown> {
  const { values, document } = await runInWorker({
    kind: "xml",
    text,
    options,
    arrayTags,
    listPath,
  });
  let holder = document as Record<string, unknown> | undefined;
  for (const key of listPath.slice(0, -1)) {
    const next: unknown = holder?.[key];
    holder = typeof next === "object" && next !== null ? (next as typeof holder) : undefined;
  }
  if (holder && values.length > 0) holder[listPath[listPath.length - 1]!] = values;
  return document;
}

/** Every file of a zip, folders and macOS's resource forks left out, unpacked in a thread. */
export async function unzipOffThread(bytes: Uint8Array): Promise<ExportFile[]> {
  // The thread gets a copy: the caller's bytes (an upload, a database row) stay as they are.
  const { values } = await runInWorker({ kind: "zip", bytes: bytes.slice() });
  return values as ExportFile[];
}

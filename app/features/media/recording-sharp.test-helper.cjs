// sharp, for ./processing.server.test.ts: the real package, with each `sharp(input, options)`
// written down (the input's SHA-256, whether it was a header read, and the thread) as a line of
// JSON in the file named by SHARP_OPENINGS_FILE. A file, written before sharp is called, so
// every opening of a job is on disk by the time the job's answer reaches the test.
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS: the image thread require()s its sharp */
const { appendFileSync } = require("node:fs");
const { createHash } = require("node:crypto");
const { threadId } = require("node:worker_threads");
const sharp = require("sharp");

function recorded(input, options) {
  if (input instanceof Uint8Array && !(options && options.raw)) {
    const line = JSON.stringify({
      digest: createHash("sha256").update(input).digest("hex"),
      header: Boolean(options && options.limitInputPixels === false),
      threadId,
    });
    appendFileSync(process.env.SHARP_OPENINGS_FILE, `${line}\n`);
  }
  return sharp(input, options);
}

module.exports = Object.assign(recorded, sharp);

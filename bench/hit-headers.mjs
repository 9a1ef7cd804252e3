// npm run bench:hit-headers: what a cache hit pays to read the request's headers. A hit needs
// four of them (cookie, accept, accept-encoding, if-none-match); node:http's `req.headers` builds
// an object of every header the first time it is read, and server/fast-path.ts reads the four
// from `req.rawHeaders` in one pass instead (`hitHeaders`). Both are timed on requests that came
// over a real socket: wrk's (the bench's load), and a browser's navigation with its usual
// headers. A benchmark, not a test: it prints a markdown table of medians over alternating rounds.
import http from "node:http";
import { once } from "node:events";

import { hitHeaders } from "../server/hit-headers.ts";

const ROUNDS = 9;
const READS = 1_000_000;

/** Header lists as each client sends them (names as written on the wire). */
const CLIENTS = {
  "wrk (the bench's load)": { "Accept-Encoding": "gzip" },
  "Chromium navigation": {
    "sec-ch-ua": '"Chromium";v="156", "Not-A.Brand";v="24"',
    "sec-ch-ua-mobile": "?0",
    "sec-ch-ua-platform": '"Linux"',
    "Upgrade-Insecure-Requests": "1",
    "User-Agent":
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
    Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "navigate",
    "Sec-Fetch-User": "?1",
    "Sec-Fetch-Dest": "document",
    Referer: "https://www.example.com/",
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "en-IE,en;q=0.9",
    Cookie: "theme=dark",
    "If-None-Match": 'W/"a1b2c3"',
  },
};

/** One request as node:http parsed it, from a real socket. */
async function parsed(headers) {
  let request;
  const server = http.createServer((req, res) => {
    request = req;
    res.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  await new Promise((resolve, reject) =>
    http.get({ port, host: "127.0.0.1", path: "/blog", headers }, resolve).on("error", reject),
  );
  server.close();
  return request;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let sink = 0;

/** Nanoseconds per read of the four headers, each way. */
function time(req, kHeaders) {
  let start = process.hrtime.bigint();
  for (let i = 0; i < READS; i++) {
    req[kHeaders] = null; // as on a new request: the getter builds the object again
    const h = req.headers;
    sink +=
      (h.cookie?.length ?? 0) +
      (h.accept?.length ?? 0) +
      (h["accept-encoding"]?.length ?? 0) +
      (h["if-none-match"]?.length ?? 0);
  }
  const object = Number(process.hrtime.bigint() - start) / READS;
  start = process.hrtime.bigint();
  for (let i = 0; i < READS; i++) {
    const h = hitHeaders(req.rawHeaders);
    sink +=
      (h.cookie?.length ?? 0) +
      (h.accept?.length ?? 0) +
      (h.acceptEncoding?.length ?? 0) +
      (h.ifNoneMatch?.length ?? 0);
  }
  return { object, raw: Number(process.hrtime.bigint() - start) / READS };
}

console.log(`| request | headers | req.headers ns | rawHeaders pass ns | saved per hit ns |`);
console.log(`|---|---:|---:|---:|---:|`);
for (const [client, headers] of Object.entries(CLIENTS)) {
  const req = await parsed(headers);
  const kHeaders = Object.getOwnPropertySymbols(req).find((s) => s.description === "kHeaders");
  if (!kHeaders) {
    console.error(`node:http ${process.version} keeps no kHeaders cache: cannot time req.headers`);
    process.exit(2);
  }
  const runs = Array.from({ length: ROUNDS }, () => time(req, kHeaders));
  const object = median(runs.map((r) => r.object));
  const raw = median(runs.map((r) => r.raw));
  const count = req.rawHeaders.length / 2;
  console.log(
    `| ${client} | ${count} | ${object.toFixed(0)} | ${raw.toFixed(0)} | ${(object - raw).toFixed(0)} |`,
  );
}
console.log(
  `\n- medians of ${ROUNDS} rounds of ${READS.toLocaleString("en")} reads; node ${process.version}`,
);
if (sink === 0) console.error("nothing was read");

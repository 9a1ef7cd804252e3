import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import autocannon from "autocannon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CONNECTION_LIMITS } from "../../app/lib/limits";
import { sleep, startServer, tail, type ServerProcess } from "./harness";

/**
 * Slow clients (a slow-loris attack): 500 connections each send their request one byte a
 * second and never finish it. Meanwhile other visitors must be answered as usual, and the server
 * must close every slow connection once its headers are overdue (CONNECTION_LIMITS), answering
 * 408. Bounded in time: the whole case takes about 15 s.
 */
const PORT = 3247;
const SLOW_CLIENTS = 500;
const MEASURE_S = 10;
/** Never completed: a request line and headers with no blank line after them. */
const TRICKLE = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nX-Slow: ${"a".repeat(200)}`;

type SlowClient = { socket: net.Socket; openedAt: number; closedAt?: number; answer: string };

describe("slow clients (PGlite, page cache on)", () => {
  let dataDir = "";
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "portfolio-slow-"));
    server = await startServer(PORT, { DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`answers others within 100 ms p99 while ${SLOW_CLIENTS} connections trickle headers, and closes those`, async () => {
    const clients: SlowClient[] = [];
    for (let i = 0; i < SLOW_CLIENTS; i++) {
      const client: SlowClient = {
        socket: net.connect(PORT, "127.0.0.1"),
        openedAt: Date.now(),
        answer: "",
      };
      client.socket.setEncoding("utf8");
      client.socket.on("data", (chunk: string) => (client.answer += chunk));
      client.socket.on("error", () => {});
      client.socket.on("close", () => (client.closedAt = Date.now()));
      clients.push(client);
    }
    // One byte a second on every connection still open.
    let sent = 0;
    const trickle = setInterval(() => {
      const byte = TRICKLE[sent % TRICKLE.length]!;
      sent += 1;
      for (const client of clients) if (client.closedAt === undefined) client.socket.write(byte);
    }, 1000);

    try {
      await sleep(500);
      const open = clients.filter((c) => c.closedAt === undefined).length;
      expect(open, "the slow connections are all accepted").toBe(SLOW_CLIENTS);

      const result = await autocannon({
        url: server.base,
        connections: 10,
        duration: MEASURE_S,
        timeout: 5,
        headers: { accept: "text/html", "accept-encoding": "gzip" },
        requests: [
          { method: "GET", path: "/" },
          { method: "GET", path: "/blog" },
        ],
      });
      const deadline = CONNECTION_LIMITS.headersMs + CONNECTION_LIMITS.checkEveryMs + 3_000;
      await sleep(Math.max(0, clients[0]!.openedAt + deadline - Date.now()));

      const closed = clients.filter((c) => c.closedAt !== undefined);
      const slowest = Math.max(...closed.map((c) => c.closedAt! - c.openedAt));
      const with408 = clients.filter((c) => c.answer.startsWith("HTTP/1.1 408")).length;
      console.log(
        `slow clients: ${SLOW_CLIENTS} trickling connections, ${sent} bytes each\n` +
          `  others: ${result["2xx"]} answers (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}), ` +
          `${result.requests.average.toFixed(0)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms\n` +
          `  slow connections closed by the server: ${closed.length} of ${SLOW_CLIENTS}, ${with408} with 408, the last after ${slowest} ms`,
      );
      expect(result.errors + result.timeouts + result.non2xx, tail(server)).toBe(0);
      expect(result["2xx"]).toBeGreaterThan(MEASURE_S * 100);
      expect(result.latency.p99).toBeLessThanOrEqual(100);
      expect(closed.length, "every slow connection is closed").toBe(SLOW_CLIENTS);
      expect(slowest).toBeLessThanOrEqual(deadline);
      expect(with408).toBe(SLOW_CLIENTS);
      // The server is still there for everyone.
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    } finally {
      clearInterval(trickle);
      for (const client of clients) client.socket.destroy();
    }
  });
});

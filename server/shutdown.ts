import type { Server } from "node:http";

import { errorMessage } from "../app/lib/log.server";

/** In-flight requests get this long to finish after SIGTERM/SIGINT before the process exits. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * On SIGTERM or SIGINT: stop accepting, let in-flight requests finish (idle keep-alive sockets
 * go at once), then `close` what runs beside them and exit; after SHUTDOWN_GRACE_MS, exit anyway.
 */
export function stopOnSignals(server: Server, close: () => Promise<void>, release: () => void) {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing in-flight requests, then exiting.`);
    const forced = setTimeout(() => {
      console.error("Requests still running after the grace period; exiting anyway.");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    server.close(() => {
      close()
        .catch((error: unknown) =>
          console.error("Closing the database failed:", errorMessage(error)),
        )
        .finally(() => {
          release();
          process.exit(0);
        });
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

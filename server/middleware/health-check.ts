import type { Handler } from "hono";
import type { RequestIdVariables } from "hono/request-id";

import { errorMessage, logEvent } from "../../app/lib/log.server";
import type { DatabaseHandle } from "../../database/db.server";

/** `/healthz`: 200 while the database answers, 503 when it does not; never cached. */
export function healthCheck(
  database: Pick<DatabaseHandle, "ping">,
): Handler<{ Variables: RequestIdVariables }> {
  return async (c) => {
    c.header("Cache-Control", "no-store");
    try {
      await database.ping();
      return c.json({ status: "ok" });
    } catch (error) {
      logEvent("error", "health-check-failed", {
        requestId: c.get("requestId"),
        error: errorMessage(error),
      });
      return c.json({ status: "unavailable" }, 503);
    }
  };
}

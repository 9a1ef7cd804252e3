import type { Handler } from "hono";
import type { RequestIdVariables } from "hono/request-id";

import { errorMessage, logEvent } from "../../app/lib/log.server";
import type { DatabaseHandle } from "../../database/db.server";
import { HEALTH_ANSWER_FRESH_MS } from "../health";

/**
 * `/healthz`: 200 while the database answers, 503 when it does not; never cached.
 *
 * The answer is the database's last one when that is younger than HEALTH_ANSWER_FRESH_MS, and
 * a question past half that age is asked again in the background (one at a time): a load
 * balancer polling many times a second costs the database about two queries a second, and a
 * health check never waits behind a database process starved of CPU while the listener itself
 * answers. An answer older than that, or none yet, is waited for; a failed question forgets
 * the last good answer, so the next check asks and says 503.
 */
export function healthCheck(
  database: Pick<DatabaseHandle, "ping">,
  now: () => number = performance.now.bind(performance),
): Handler<{ Variables: RequestIdVariables }> {
  let answeredAt = -Infinity;
  let asking: Promise<unknown> | null = null;

  const ask = () =>
    (asking ??= database.ping().then(
      () => {
        answeredAt = now();
        asking = null;
      },
      (error: unknown) => {
        answeredAt = -Infinity;
        asking = null;
        throw error;
      },
    ));

  return async (c) => {
    c.header("Cache-Control", "no-store");
    const age = now() - answeredAt;
    try {
      if (age >= HEALTH_ANSWER_FRESH_MS) await ask();
      else if (age >= HEALTH_ANSWER_FRESH_MS / 2) ask().catch(() => {});
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

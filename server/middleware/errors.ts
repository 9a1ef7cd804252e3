import type { Context, Env } from "hono";
import type { RequestIdVariables } from "hono/request-id";

import { errorMessage, logEvent } from "../../app/lib/log.server";

/**
 * Anything thrown outside React Router (which answers its own errors): logged with the request
 * id, answered without details.
 */
export function answerServerError<E extends Env & { Variables: RequestIdVariables }>(
  error: Error,
  c: Context<E>,
) {
  logEvent("error", "server-error", {
    requestId: c.get("requestId"),
    method: c.req.method,
    path: c.req.path,
    error: errorMessage(error),
    stack: error.stack,
  });
  return c.text("Internal Server Error", 500);
}

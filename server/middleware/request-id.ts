import type { MiddlewareHandler } from "hono";
import type { RequestIdVariables } from "hono/request-id";

/**
 * Our own id for every request, never the client's (logs must not be forgeable): in every log
 * line about the request (`c.get("requestId")`) and sent back as `X-Request-Id`.
 */
export function requestIds(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async (c, next) => {
    c.set("requestId", crypto.randomUUID());
    await next();
    c.res.headers.set("X-Request-Id", c.get("requestId"));
  };
}

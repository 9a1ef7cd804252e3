import type { MiddlewareHandler } from "hono";

import { SAFE_METHODS } from "./cross-site";

/**
 * Holds every request that could change something (a sign-in among them) until `ready`
 * settles: the owner's password is hashed in the server's first moments, and a sign-in then is
 * checked against the password the server was started with. Reads are answered meanwhile.
 */
export function holdWritesUntil(ready: Promise<void>): MiddlewareHandler {
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) await ready;
    await next();
  };
}

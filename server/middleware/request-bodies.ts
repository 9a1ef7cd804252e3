import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

import { BODY_LIMITS, bodyTooLargeText } from "../../app/lib/limits";
import type { ResolvedRoute } from "../routing";

/** What a request that carries a body may be: forms, and JSON for the APIs. */
const ACCEPTED_BODY_TYPES =
  /^(?:application\/x-www-form-urlencoded|multipart\/form-data|application\/json)\s*(?:;|$)/i;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return request.headers.has("transfer-encoding") || (length !== null && length !== "0");
}

/** A body of any other type gets a clear answer (415) before any route reads it. */
export function acceptedBodyTypes(): MiddlewareHandler {
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method) || !hasBody(c.req.raw)) return next();
    const type = c.req.header("content-type") ?? "";
    if (!ACCEPTED_BODY_TYPES.test(type)) {
      return c.json(
        {
          ok: false,
          error: `Unsupported content type ${JSON.stringify(type.slice(0, 100))}: send a form (application/x-www-form-urlencoded or multipart/form-data) or application/json.`,
        },
        415,
        { Connection: "close" },
      );
    }
    return next();
  };
}

/**
 * Each route's own body limit (app/route-policy.ts `bodyLimit`), forms' by default: a larger
 * body is refused (413) as it arrives, whether or not it says its length.
 */
export function bodyLimits(): MiddlewareHandler<{ Variables: { route?: ResolvedRoute } }> {
  // One of Hono's middleware per limit, made when first needed.
  const limits = new Map<number, MiddlewareHandler>();
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method)) return next();
    const limit = c.get("route")?.policy.bodyLimit ?? BODY_LIMITS.form;
    const stated = c.req.header("content-length");
    if (stated !== undefined && !c.req.header("transfer-encoding") && Number(stated) > limit) {
      // Refused by its stated length, its body untouched: node:http reads the rest and drops
      // it (within the request's time limit, CONNECTION_LIMITS.requestMs), so a client still
      // sending reads this answer rather than a reset, and may go on on the same connection.
      return c.json({ ok: false, error: bodyTooLargeText(limit) }, 413);
    }
    let check = limits.get(limit);
    if (!check) {
      const error = bodyTooLargeText(limit);
      // A body without a stated length, refused part way: the rest is never read, and the
      // connection closes after the answer, so the client sends its next request on a new one
      // instead of one cut off mid-body.
      check = bodyLimit({
        maxSize: limit,
        onError: (c) => c.json({ ok: false, error }, 413, { Connection: "close" }),
      });
      limits.set(limit, check);
    }
    return check(c, next);
  };
}

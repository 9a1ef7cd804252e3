import type { HttpBindings } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";

import { senderOf, trustedProxies, type Sender } from "../../app/lib/client-address.server";
import type { Env } from "../../app/lib/env.server";

export type SenderVariables = { sender: Sender };

/** Who sent the request, behind the trusted proxies (TRUST_PROXY), and whether over https. */
export function sender(
  env: Pick<Env, "trustProxy" | "siteUrl">,
): MiddlewareHandler<{ Bindings: HttpBindings; Variables: SenderVariables }> {
  const trust = trustedProxies(env.trustProxy);
  const siteIsHttps = env.siteUrl.startsWith("https:");
  return (c, next) => {
    c.set(
      "sender",
      senderOf(trust, siteIsHttps, c.env?.incoming?.socket?.remoteAddress, c.req.raw.headers),
    );
    return next();
  };
}

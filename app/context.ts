import { createContext } from "react-router";

import type { Database } from "../database/db.server";
import type { Env } from "./lib/env.server";

/** What the server hands every loader and action (built for each request by server/middleware/react-router.ts). */
export type AppContext = {
  db: Database;
  env: Env;
  /**
   * Who the throttles and the contact limit count this request as: the client's address behind
   * the trusted proxies, an IPv6 one as its /64 (app/lib/client-address.server.ts).
   */
  clientAddress: string;
  /** Whether the visitor's connection is https (secure cookies): app/lib/client-address.server.ts. */
  secure?: boolean;
  /** Tells the delivery worker a contact message is waiting (a no-op without one). */
  wakeDelivery?: () => void;
  /**
   * This response's CSP nonce, for every script tag rendered; none on a page that does not load
   * React, whose scripts the policy allows by hash (server/security.ts).
   */
  nonce?: string;
  /** Sent back as `X-Request-Id` and written into every log line about this request. */
  requestId?: string;
  /** The server found the database unreachable (server/health.ts): pages answer 503. */
  databaseUnavailable?: boolean;
  /** A part of this page could not be read and shows empty: no cache may keep the page. */
  degraded?: () => void;
};

export const appContext = createContext<AppContext>();

import { createContext } from "react-router";

import type { Database } from "../database/db.server";
import type { Env } from "./lib/env.server";

/** What the server hands every loader and action (built once at start-up, server/http.ts). */
export type AppContext = {
  db: Database;
  env: Env;
  /** The client's address as the socket sees it (for throttling). */
  clientAddress: string;
  /** Tells the delivery worker a contact message is waiting (a no-op without one). */
  wakeDelivery?: () => void;
};

export const appContext = createContext<AppContext>();

import { createContext } from "react-router";

import type { Database } from "../database/db.server";
import type { Env } from "./lib/env.server";

/** What the server hands every loader and action (built once at start-up, server/http.ts). */
export type AppContext = {
  db: Database;
  env: Env;
};

export const appContext = createContext<AppContext>();

import { createContext } from "react";

import type { PendingPolicy } from "./features/site";
import type { RoutePolicy } from "./route-policy";

/**
 * The route policy as the root layout reads it while the server renders a document (whether the
 * page hydrates): app/entry.server.tsx provides it. The browser never reads the policy whole, so
 * the table, and the parsers and limits it names, stay out of every page's JavaScript.
 */
export const RoutePolicyContext = createContext<(id: string) => RoutePolicy | undefined>(
  () => undefined,
);

/** The pending texts the browser needs, by route id: the root loader sends them (see below). */
export type PendingTexts = Record<string, NonNullable<ReturnType<PendingPolicy>>>;

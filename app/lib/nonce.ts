import { createContext } from "react";

/** The CSP nonce of the response being rendered (app/entry.server.tsx); undefined in the browser. */
export const NonceContext = createContext<string | undefined>(undefined);

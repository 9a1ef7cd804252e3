import { createContext } from "react";

/**
 * The inline script of pages that do not hydrate (app/features/site/site-script.ts), handed to the root
 * layout by app/entry.server.tsx so that its source stays out of the browser's bundles; empty in
 * the browser, which only renders pages that hydrate.
 */
export const SiteScriptContext = createContext("");

/**
 * The site's own URL for the social jobs, which run with no request to read it from: set at
 * start-up from SITE_URL (server/app.ts), like the outgoing fetch policy; until then (a worker
 * started by a test or a script) read from the environment as the server would.
 */
import { parseEnv } from "~/lib/env.server";

let siteUrl: string | null = null;

export function setSocialSiteUrl(url: string) {
  siteUrl = url.replace(/\/+$/, "");
}

export function socialSiteUrl(): string {
  siteUrl ??= parseEnv().siteUrl;
  return siteUrl;
}

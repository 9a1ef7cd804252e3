/**
 * What the federation's jobs need to know of the running site (its URL): set when the HTTP app
 * is made (server/middleware/federation.ts), from the same environment the server reads; a
 * process that runs jobs without it (a script, a test of the worker) reads the environment.
 */
import { parseEnv } from "~/lib/env.server";

let current: { siteUrl: string } | null = null;

export function configureSocial(config: { siteUrl: string }) {
  current = { siteUrl: config.siteUrl };
}

export function socialConfig(): { siteUrl: string } {
  current ??= { siteUrl: parseEnv().siteUrl };
  return current;
}

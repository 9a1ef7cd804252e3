/**
 * What the federation's jobs need to know of the running site (its URL), set once per process
 * when the HTTP app is made (server/http.ts): jobs only get the database.
 */
let current: { siteUrl: string } | null = null;

export function configureSocial(config: { siteUrl: string }) {
  current = { siteUrl: config.siteUrl };
}

export function socialConfig(): { siteUrl: string } {
  if (!current) throw new Error("The federation is not configured (configureSocial).");
  return current;
}

/**
 * The site's own URL for the social jobs, which run with no request to read it from: set once
 * at start-up from SITE_URL (server/app.ts), like the outgoing fetch policy.
 */
let siteUrl: string | null = null;

export function setSocialSiteUrl(url: string) {
  siteUrl = url.replace(/\/+$/, "");
}

export function socialSiteUrl(): string {
  if (siteUrl === null) throw new Error("The social jobs need the site's URL (setSocialSiteUrl).");
  return siteUrl;
}

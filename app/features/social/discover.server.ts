/**
 * Webmention endpoint discovery (W3C Webmention, 3.1.2): the target's first HTTP `Link` header
 * with rel=webmention, else the first `<link>` or `<a>` element with rel=webmention in document
 * order; a relative URL resolved against the URL that answered (after redirects), its query
 * kept; an empty href names the page itself. Fetched through safeFetch (no private addresses
 * unless FETCH_ALLOW_PRIVATE).
 */
import { safeFetch } from "~/lib/safe-fetch.server";

import { decodeEntities } from "./links.server";

/** The `rel` values a link's parameters give, lowercased. */
function relsOf(params: string): string[] {
  const match = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(params);
  return (match?.[1] ?? match?.[2] ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

/** The first rel=webmention URL of `Link` headers (several links per header, comma-separated). */
export function endpointFromLinkHeader(header: string | null, baseUrl: string): string | null {
  if (!header) return null;
  for (const match of header.matchAll(/<([^>]*)>([^,<]*)/g)) {
    if (!relsOf(match[2] ?? "").includes("webmention")) continue;
    try {
      return new URL(match[1]!.trim(), baseUrl).href;
    } catch {
      continue;
    }
  }
  return null;
}

/** The first `<link>` or `<a>` with rel=webmention, in document order. */
export function endpointFromHtml(html: string, baseUrl: string): string | null {
  const elements = /<(link|a)\b([^>]*)>/gi;
  for (const match of html.replace(/<!--[\s\S]*?-->/g, "").matchAll(elements)) {
    const attributes = match[2] ?? "";
    const rel = /\srel\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
    const rels = (rel?.[1] ?? rel?.[2] ?? rel?.[3] ?? "").toLowerCase().split(/\s+/);
    if (!rels.includes("webmention")) continue;
    const href = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
    if (!href) continue;
    try {
      return new URL(decodeEntities(href[1] ?? href[2] ?? href[3] ?? "").trim(), baseUrl).href;
    } catch {
      continue;
    }
  }
  return null;
}

/** The target's Webmention endpoint, or null when it has none. Throws when it cannot be read. */
export async function discoverEndpoint(target: string): Promise<string | null> {
  const response = await safeFetch(target, {
    headers: { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5" },
  });
  if (response.status >= 500) throw new Error(`${target} answered ${response.status}`);
  const fromHeader = endpointFromLinkHeader(response.headers.get("link"), response.url);
  if (fromHeader) return fromHeader;
  const type = response.headers.get("content-type") ?? "";
  if (response.status >= 400 || !/html/i.test(type)) return null;
  return endpointFromHtml(response.text(), response.url);
}

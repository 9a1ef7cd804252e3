/**
 * The URLs an HTML document links to (every href and src, resolved against its URL), for
 * Webmention: does a source link to a target, and which pages does a post link to.
 */

const ATTRIBUTE = /\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** The character references an attribute value may hold. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Every href and src of the document, resolved against `baseUrl` (fragments dropped). */
export function linksOf(html: string, baseUrl: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(ATTRIBUTE)) {
    const raw = decodeEntities(match[1] ?? match[2] ?? match[3] ?? "").trim();
    try {
      const url = new URL(raw, baseUrl);
      url.hash = "";
      found.push(url.href);
    } catch {
      // Not a URL: no link.
    }
  }
  return found;
}

/** A URL as compared: parsed and serialized, without its fragment. Null when it is no URL. */
export function normalizeUrl(value: string): string | null {
  try {
    const url = new URL(value);
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
}

/** Does the document link to the target (an href or src resolving to it)? */
export function linksTo(html: string, baseUrl: string, target: string): boolean {
  const wanted = normalizeUrl(target);
  return wanted !== null && linksOf(html, baseUrl).includes(wanted);
}

/** The pages outside the site a post links to, in order, once each, at most `max`. */
export function externalLinks(html: string, siteUrl: string, max: number): string[] {
  const site = new URL(siteUrl).origin;
  const out = new Set<string>();
  for (const link of linksOf(html, siteUrl)) {
    const url = new URL(link);
    if ((url.protocol === "http:" || url.protocol === "https:") && url.origin !== site) {
      out.add(link);
      if (out.size >= max) break;
    }
  }
  return [...out];
}

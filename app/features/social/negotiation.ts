/**
 * Which requests ask for ActivityPub: an Accept naming `application/activity+json`, or
 * `application/ld+json` with the ActivityStreams profile, and not HTML (a browser's Accept
 * names text/html; Mastodon's does not). The home page and post pages answer either way, so
 * they say `Vary: Accept`; the page cache never answers an ActivityPub request.
 */
const ACTIVITY_JSON = /application\/activity\+json/i;
const LD_JSON_AS =
  /application\/ld\+json\s*;[^,]*profile\s*=\s*"?https:\/\/www\.w3\.org\/ns\/activitystreams/i;
const HTML = /text\/html/i;

export function wantsActivityPub(accept: string | null | undefined): boolean {
  if (!accept) return false;
  return (ACTIVITY_JSON.test(accept) || LD_JSON_AS.test(accept)) && !HTML.test(accept);
}

/** The post page paths (`/blog/{segment}`, one segment) and `/`: the negotiated pages. */
export function negotiatedPage(pathname: string): "home" | "post" | null {
  if (pathname === "/") return "home";
  const match = /^\/blog\/([^/]+)\/?$/.exec(pathname);
  if (!match || match[1] === "tags") return null;
  return "post";
}

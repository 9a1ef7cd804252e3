export { defaultHandle, fullHandle, HANDLE_MAX_CHARS, HANDLE_TEXT, readHandle } from "./handle";
export { negotiatedPage, wantsActivityPub } from "./negotiation";
export { OWNER_IDENTIFIER, socialUrls } from "./urls";

/** The `<link rel="alternate">` (a route's meta) to an ActivityPub document of the page. */
export const activityPubLink = (href: string) => ({
  tagName: "link" as const,
  rel: "alternate",
  type: "application/activity+json",
  href,
});

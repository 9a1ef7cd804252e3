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
export { SocialAdmin } from "./social-admin";
export {
  FOLLOWERS_PAGE_SIZE,
  SOCIAL_BODY_LIMIT,
  SOCIAL_FIELDS,
  SOCIAL_INTENTS,
  SOCIAL_PATH,
  SOCIAL_TEXT,
  type SocialAdminData,
} from "./admin";
export { ResponsesSection } from "./responses-section";
export {
  RESPONSES_TEXT,
  WEBMENTION_PATH,
  webmentionEndpoint,
  webmentionLinkHeader,
  type PostResponses,
  type ShownResponse,
} from "./responses";
export { WEBMENTION_BODY_LIMIT, WEBMENTION_LIMITS, WEBMENTION_TEXT } from "./webmention";

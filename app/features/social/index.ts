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

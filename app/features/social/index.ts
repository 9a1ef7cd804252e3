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

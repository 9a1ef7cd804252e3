export { SubscribeForm } from "./subscribe-form";
export { SubscribeDone } from "./subscribe-done";
export { LinkPage } from "./link-page";
export { SubscribersAdmin, type SubscribersAdminData } from "./subscribers-admin";
export {
  ADMIN_TEXT,
  IMPORT_FIELDS,
  INTENTS,
  SUBSCRIBERS_BODY_LIMIT,
  importedText,
  type AdminActionData,
  type ImportPreview,
} from "./admin";
export {
  SUBSCRIBE_BODY_LIMIT,
  SUBSCRIBE_PATH,
  SUBSCRIBE_TEXT,
  type SubscribeOutcome,
} from "./subscribe";
export { LINK_TEXT, type LinkState } from "./link-texts";

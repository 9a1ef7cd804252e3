export {
  CONFIRM_LINK_VALID_MS,
  SUBSCRIBER_PATHS,
  checkConfirm,
  checkUnsubscribe,
  confirmUrl,
  linkSubscriberId,
  subscriberSecret,
  unsubscribeUrl,
} from "./links.server";

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
export {
  NEWSLETTER_JOBS,
  NEWSLETTER_SENDING,
  newsletterCounts,
  onNewsletterQueued,
  type NewsletterCounts,
} from "./newsletter.server";
export { sendNewsletterRound, type NewsletterSender } from "./newsletter-send.server";

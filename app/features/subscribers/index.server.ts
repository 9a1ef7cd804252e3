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
  SUBSCRIBER_JOBS,
  confirmMailJob,
  sendConfirmation,
  type MailSetup,
} from "./confirm-mail.server";
export { CONFIRM_MAIL_JOB, requestSubscription } from "./store.server";
export { confirmLink, handleSubscribe, unsubscribeLink, type LinkAnswer } from "./requests.server";
export {
  exportSubscribers,
  importSubscribers,
  listSubscribers,
  previewImport,
  removeSubscriber,
  subscriberCounts,
} from "./admin.server";
export { subscriberAdminAction, subscriberAdminData } from "./admin-action.server";
export { subscribeFormHtml } from "./form-html.server";
export {
  NEWSLETTER_JOBS,
  NEWSLETTER_SENDING,
  newsletterCounts,
  onNewsletterQueued,
  type NewsletterCounts,
} from "./newsletter.server";
export { sendNewsletterRound, type NewsletterSender } from "./newsletter-send.server";

export {
  type Mail,
  type MailTransport,
  contactMail,
  escapeHtml,
  mailDeliveryConfigured,
  mailTransportFrom,
} from "./mail.server";
export {
  type MessageStatus,
  POLL_MS,
  claimDueMessages,
  listMessages,
  markAttemptFailed,
  markDelivered,
  retryMessage,
} from "./outbox.server";
export { handleContact } from "./submit.server";

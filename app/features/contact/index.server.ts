export {
  type MailTransport,
  contactMail,
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

export {
  blockActor,
  blockDomain,
  domainOf,
  hostOf,
  isBlocked,
  listBlocks,
  unblock,
} from "./blocks.server";
export {
  postIdForUrl,
  recordResponse,
  removeResponses,
  type RecordOutcome,
  type ResponseInput,
} from "./responses.server";
export { configureSocial, socialConfig } from "./config.server";
export { DELIVER_JOB, deliver, queueDelivery, type Delivery } from "./delivery.server";
export { federationFor, type SocialFederation } from "./federation.server";
export { ownerHandle, ownerKeyPair } from "./keys.server";
export { SocialKvStore } from "./kv.server";
export {
  COLLECTION_PAGE_SIZE,
  FOLLOWER_DROP_AFTER_MS,
  INBOX_BODY_LIMIT,
  INBOX_RATE_LIMIT,
} from "./limits";
export { negotiatedPage, wantsActivityPub } from "./negotiation";
export { federatePost, POST_CHANGED_JOB, queuePostChanged, SOCIAL_JOBS } from "./outbox.server";
export { OWNER_IDENTIFIER, socialUrls } from "./urls";
export { socialAdminAction, socialAdminData } from "./admin-page.server";
export {
  blockFollower,
  blockResponder,
  decideResponse,
  liftBlock,
  listFollowers,
  listPending,
  removeFollower,
} from "./moderation.server";
export { readPostResponses } from "./responses-view.server";
export { receiveWebmention, type WebmentionAnswer } from "./receive.server";
export { endpointFromHtml, endpointFromLinkHeader, discoverEndpoint } from "./discover.server";
export { WEBMENTION_JOBS } from "./webmention-jobs.server";

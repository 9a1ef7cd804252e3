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
export { inboxRateWait } from "./inbox-rate.server";
export { ACTIVITY_PATH, activityAnswer } from "./activities.server";
export { ownerHandle } from "./handle.server";
export { DELIVER_JOB, INBOX_JOB, POST_CHANGED_JOB, SOCIAL_JOBS } from "./jobs.server";
export {
  COLLECTION_PAGE_SIZE,
  FOLLOWER_DROP_AFTER_MS,
  INBOX_BODY_LIMIT,
  INBOX_RATE_LIMIT,
} from "./limits";
export { negotiatedPage, wantsActivityPub } from "./negotiation";
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
export { dropImportedPostWebmentions } from "./send.server";

/**
 * The ActivityPub side itself (Fedify, about 55 MB once loaded), imported on first use: by the
 * first ActivityPub request (server/middleware/federation.ts), not when the server starts.
 */
export const loadFederation = () => import("./federation.server");

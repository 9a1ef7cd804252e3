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
export { setSocialSiteUrl } from "./site-url.server";
export { receiveWebmention, type WebmentionAnswer } from "./receive.server";
export { endpointFromHtml, endpointFromLinkHeader, discoverEndpoint } from "./discover.server";
export { WEBMENTION_JOBS } from "./webmention-jobs.server";

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
import { WEBMENTION_RECEIVE_JOBS } from "./receive.server";
import { WEBMENTION_SEND_JOBS } from "./send.server";
/** The Webmention jobs (receiving and sending), for the site's job worker (server/jobs.ts). */
export const WEBMENTION_JOBS = [...WEBMENTION_RECEIVE_JOBS, ...WEBMENTION_SEND_JOBS];

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

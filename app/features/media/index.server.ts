export { MEDIA_JOBS, ORPHAN_GRACE_HOURS, purgeOrphanMedia } from "./orphans.server";
export { processCv, processImage, processPhoto, refusalAnswer } from "./processing.server";
export { readMedia, storeMedia } from "./store.server";
export { commitMedia, withStagedMedia, type StagedMedia } from "./store.server";
export { MEDIA_DELETED_CHANNEL, readMediaInfos } from "./store.server";

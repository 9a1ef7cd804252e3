export { processCv, processImage, processPhoto } from "./processing.server";
export { readMedia, readMediaInfo, storeMedia } from "./store.server";

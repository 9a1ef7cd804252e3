export { processCv, processImage, processPhoto, refusalAnswer } from "./processing.server";
export { readMedia, readMediaInfo, storeMedia } from "./store.server";

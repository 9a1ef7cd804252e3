export {
  processCv,
  processImage,
  processPhoto,
  readMedia,
  readMediaInfo,
  storeMedia,
} from "./media.server";

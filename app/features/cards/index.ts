export { CARD_SIZE, shareImageOf, type ShareImage } from "./card";

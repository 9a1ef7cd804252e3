export { CARD_JOBS, refreshCards, requestCardRefresh } from "./cards.server";
